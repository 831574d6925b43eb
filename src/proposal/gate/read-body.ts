/** Reads a request body up to a byte limit, before any parsing, so an oversized body costs little. */
import { MAX_BODY_BYTES } from '../../contract/fields.ts';

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'unreadable' };

export async function readBody(req: Request, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return { ok: false, reason: 'too-large' };
  if (!req.body) return { ok: true, text: '' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // Leaving the loop early cancels the stream.
    for await (const chunk of req.body) {
      size += chunk.byteLength;
      if (size > limit) return { ok: false, reason: 'too-large' };
      chunks.push(chunk);
    }
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
