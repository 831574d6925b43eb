/**
 * What both doors check of a request before reading it their own way: the hosts served (against DNS
 * rebinding: a page on evil.example that resolves its name to this server sends `Host: evil.example`,
 * so Host and Origin are checked against one list the deployment fixes, by the MCP SDK's rules), the
 * media type, and the body read within its limit before any parsing.
 */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const hostnameOf = (url: string) => URL.parse(url)?.hostname || undefined;

/** The canonical host (the site URL of the build), the deploy's own hosts, and loopback. */
export const allowedHosts = (canonicalUrl: string, deployUrls: readonly string[]): ReadonlySet<string> =>
  new Set([...LOOPBACK, ...[canonicalUrl, ...deployUrls].flatMap((url) => hostnameOf(url) ?? [])]);

/** Which header names a host the function does not answer on; a missing Origin passes, an unparsable one (`null` too) does not. */
export function foreignHost(req: Request, allowed: ReadonlySet<string>): 'Host' | 'Origin' | undefined {
  const host = hostnameOf(`http://${req.headers.get('host') ?? new URL(req.url).host}`);
  if (host === undefined || !allowed.has(host)) return 'Host';
  const origin = req.headers.get('origin');
  if (origin === null || origin === '') return undefined;
  const originHost = hostnameOf(origin);
  return originHost !== undefined && allowed.has(originHost) ? undefined : 'Origin';
}

export type MediaType = 'json' | 'form';
export type PostRefusal = 'media-type' | 'too-large' | 'unreadable' | 'malformed-json';

export function mediaTypeOf(contentType: string | null): MediaType | null {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/json' || /^application\/[\w.+-]+\+json$/.test(essence)) return 'json';
  return essence === 'application/x-www-form-urlencoded' ? 'form' : null;
}

export type Post = { media: MediaType; bytes: Uint8Array; text: string; json?: unknown };

/** The body of a POST of an `accepted` media type, at most `limit` bytes, before any parsing; JSON parsed. */
export async function readPost(
  req: Request,
  accepted: readonly MediaType[],
  limit: number,
): Promise<{ refused: PostRefusal } | Post> {
  const media = mediaTypeOf(req.headers.get('content-type'));
  if (media === null || !accepted.includes(media)) return { refused: 'media-type' };
  if (Number(req.headers.get('content-length')) > limit) return { refused: 'too-large' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // Leaving the loop early cancels the stream.
    for await (const chunk of req.body ?? []) {
      size += chunk.byteLength;
      if (size > limit) return { refused: 'too-large' };
      chunks.push(chunk);
    }
  } catch {
    return { refused: 'unreadable' };
  }
  const bytes = new Uint8Array(Buffer.concat(chunks));
  const text = Buffer.from(bytes).toString('utf8');
  if (media === 'form') return { media, bytes, text };
  try {
    return { media, bytes, text, json: JSON.parse(text) as unknown };
  } catch {
    return { refused: 'malformed-json' };
  }
}

/** Every reply, whoever built it: never stored by a cache, never sniffed (a function's replies get no netlify.toml header). */
export function hardened(reply: Response): Response {
  const headers = new Headers(reply.headers);
  headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers });
}
