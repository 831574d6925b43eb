/** Whether a Content-Digest (RFC 9530) matches the body received: what makes a signature cover the body. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseDictionary } from 'structured-headers';

const ALGORITHMS = { 'sha-256': 'sha256', 'sha-512': 'sha512' } as const;

/** `unchecked`: no digest in an algorithm this site computes, or no body to check it against. */
export function checkContentDigest(header: string, body: Uint8Array | undefined): 'match' | 'mismatch' | 'unchecked' {
  if (body === undefined) return 'unchecked';
  let dictionary;
  try {
    dictionary = parseDictionary(header);
  } catch {
    return 'mismatch';
  }
  let checked = false;
  for (const [name, algorithm] of Object.entries(ALGORITHMS)) {
    const sent = dictionary.get(name)?.[0];
    if (sent === undefined) continue;
    if (!(sent instanceof ArrayBuffer)) return 'mismatch';
    const [given, computed] = [Buffer.from(sent), createHash(algorithm).update(body).digest()];
    if (given.length !== computed.length || !timingSafeEqual(given, computed)) return 'mismatch';
    checked = true;
  }
  return checked ? 'match' : 'unchecked';
}
