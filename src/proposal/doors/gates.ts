/**
 * What both doors check before reading a request their own way: Host and Origin against the hosts served (DNS
 * rebinding, by the MCP SDK's rules), the media type, and the body read within its limit before any parsing.
 */
import { LOOPBACK_HOSTS } from '../config.ts';

const hostnameOf = (url: string) => URL.parse(url)?.hostname || undefined;

export const allowedHosts = (canonicalUrl: string, deployUrls: readonly string[]): ReadonlySet<string> =>
  new Set([...LOOPBACK_HOSTS, ...[canonicalUrl, ...deployUrls].flatMap((url) => hostnameOf(url) ?? [])]);

/** Which header names a host the function does not answer on; a missing Origin passes, an unparsable one (`null` too) does not. */
export function foreignHost(req: Request, allowed: ReadonlySet<string>): 'Host' | 'Origin' | undefined {
  const served = (url: string) => allowed.has(hostnameOf(url) ?? '');
  if (!served(`http://${req.headers.get('host') ?? new URL(req.url).host}`)) return 'Host';
  const origin = req.headers.get('origin');
  return !origin || served(origin) ? undefined : 'Origin';
}

type MediaType = 'json' | 'form';
export type PostRefusal = 'media-type' | 'too-large' | 'unreadable' | 'malformed-json';

export function mediaTypeOf(contentType: string | null): MediaType | null {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/json' || /^application\/[\w.+-]+\+json$/.test(essence)) return 'json';
  return essence === 'application/x-www-form-urlencoded' ? 'form' : null;
}

/** The body of a POST of an `accepted` media type, at most `limit` bytes, before any parsing; JSON parsed. */
export async function readPost(req: Request, accepted: readonly MediaType[], limit: number) {
  const media = mediaTypeOf(req.headers.get('content-type'));
  if (media === null || !accepted.includes(media)) return { refused: 'media-type' } as const;
  if (Number(req.headers.get('content-length')) > limit) return { refused: 'too-large' } as const;
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // Leaving the loop early cancels the stream.
    for await (const chunk of req.body ?? []) {
      size += chunk.byteLength;
      if (size > limit) return { refused: 'too-large' } as const;
      chunks.push(chunk);
    }
  } catch {
    return { refused: 'unreadable' } as const;
  }
  const bytes = new Uint8Array(Buffer.concat(chunks));
  const text = Buffer.from(bytes).toString('utf8');
  try {
    return { media, bytes, text, json: media === 'json' ? (JSON.parse(text) as unknown) : undefined };
  } catch {
    return { refused: 'malformed-json' } as const;
  }
}

/** Every reply, whoever built it: never stored by a cache, never sniffed (a function's replies get no netlify.toml header). */
export function hardened(reply: Response): Response {
  const headers = new Headers(reply.headers);
  headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers });
}
