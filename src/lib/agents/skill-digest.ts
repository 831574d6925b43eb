/** Digests of the Agent Skills Discovery RFC v0.2.0: SHA-256 of the exact bytes served. */
import { createHash } from 'node:crypto';

/** `sha256:` and the lower-case hex SHA-256 of a file's UTF-8 bytes. */
export const sha256Digest = (content: string | Uint8Array) =>
  `sha256:${createHash('sha256').update(content).digest('hex')}`;
