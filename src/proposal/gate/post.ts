/** What both doors check of a POST before reading it their own way: its media type, its size and, for JSON, that it parses. */
import { readBody } from './read-body.ts';

export type MediaType = 'json' | 'form';
export type PostRefusal = 'media-type' | 'too-large' | 'unreadable' | 'malformed-json';

export function mediaTypeOf(contentType: string | null): MediaType | null {
  const essence = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/json' || /^application\/[\w.+-]+\+json$/.test(essence)) return 'json';
  if (essence === 'application/x-www-form-urlencoded') return 'form';
  return null;
}

/** The body of a POST of one of `accepted` media types, at most `limit` bytes; JSON parsed (`json`). */
export async function readPost(
  req: Request,
  accepted: readonly MediaType[],
  limit: number,
): Promise<{ refused: PostRefusal } | { media: MediaType; text: string; json?: unknown }> {
  const media = mediaTypeOf(req.headers.get('content-type'));
  if (media === null || !accepted.includes(media)) return { refused: 'media-type' };
  const body = await readBody(req, limit);
  if (!body.ok) return { refused: body.reason };
  if (media === 'form') return { media, text: body.text };
  try {
    return { media, text: body.text, json: JSON.parse(body.text) as unknown };
  } catch {
    return { refused: 'malformed-json' };
  }
}
