/** Whether a Content-Digest (RFC 9530) matches the body received: what makes a signature cover the body. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseDictionary } from 'structured-headers';
import { MAX_BODY_BYTES } from '../../contract/fields.ts';

const ALGORITHMS = { 'sha-256': 'sha256', 'sha-512': 'sha512' } as const;

/** `unchecked`: no digest in an algorithm this site computes, or the body could not be read whole. */
export type DigestCheck = 'match' | 'mismatch' | 'unchecked';

export function checkContentDigest(header: string, body: Uint8Array | null): DigestCheck {
  if (body === null) return 'unchecked';
  let dictionary;
  try {
    dictionary = parseDictionary(header);
  } catch {
    return 'mismatch';
  }
  let checked = false;
  for (const [name, algorithm] of Object.entries(ALGORITHMS)) {
    const member = dictionary.get(name);
    if (member === undefined) continue;
    const sent = member[0];
    if (!(sent instanceof ArrayBuffer)) return 'mismatch';
    const computed = createHash(algorithm).update(body).digest();
    const given = Buffer.from(sent);
    if (given.length !== computed.length || !timingSafeEqual(given, computed)) return 'mismatch';
    checked = true;
  }
  return checked ? 'match' : 'unchecked';
}

/**
 * A copy of the body, read beside the handler's own reading (Request.clone), up to the body limit
 * the handler enforces: null past it or when unreadable. Must be called before anyone reads the body.
 */
export function bodyCopy(request: Request): Promise<Uint8Array | null> {
  if (request.body === null) return Promise.resolve(new Uint8Array());
  if (request.bodyUsed) return Promise.resolve(null);
  const copy = request.clone().body!;
  return (async () => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for await (const chunk of copy as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > MAX_BODY_BYTES) return null;
        chunks.push(chunk);
      }
    } catch {
      return null;
    }
    return new Uint8Array(Buffer.concat(chunks));
  })();
}
