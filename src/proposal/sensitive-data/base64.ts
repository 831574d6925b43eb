/**
 * Base64 and base64url decoding without Node's Buffer, so the detectors run in the page too.
 * Lenient as Buffer is: stops at `=`, skips characters outside the alphabet, drops a trailing
 * partial byte.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function sextet(char: string): number {
  if (char === '-') return 62;
  if (char === '_') return 63;
  return ALPHABET.indexOf(char);
}

export function base64Bytes(text: string): Uint8Array {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of text) {
    if (char === '=') break;
    const value = sextet(char);
    if (value < 0) continue;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/** Decoded bytes read as UTF-8 (invalid sequences become U+FFFD). */
export const base64Utf8 = (text: string): string => new TextDecoder().decode(base64Bytes(text));

/** Decoded bytes read one character per byte (latin1). */
export const base64Latin1 = (text: string): string => String.fromCharCode(...base64Bytes(text));
