/** Digests of the Agent Skills Discovery RFC v0.2.0 ("Integrity and Verification"). */
import { createHash } from 'node:crypto';

/** Lower-case hex SHA-256 of a file's UTF-8 bytes. */
export const sha256Hex = (content: string | Uint8Array) => createHash('sha256').update(content).digest('hex');

/**
 * Skill-level digest: sha256 over the lines `{path}\0{hex}\n` of every file, sorted by path in
 * byte order, as `sha256:{hex}`.
 */
export function skillDigest(files: { path: string; hex: string }[]): string {
  const manifest = [...files]
    .sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)))
    .map((f) => `${f.path}\0${f.hex}\n`)
    .join('');
  return `sha256:${sha256Hex(manifest)}`;
}
