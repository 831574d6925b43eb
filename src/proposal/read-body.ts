/** Reads a request body up to a byte limit, before any parsing, so an oversized body costs little. */
import { MAX_BODY_BYTES } from '../contract/fields.ts';

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'unreadable' };

export async function readBody(req: Request, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return { ok: false, reason: 'too-large' };
  if (!req.body) return { ok: true, text: '' };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return { ok: false, reason: 'too-large' };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}
