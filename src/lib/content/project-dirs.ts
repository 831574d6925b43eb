/** Folders read at render time, from the working directory: bundled page code has no useful `import.meta.url`. */
import { resolve } from 'node:path';

export const ROOT = resolve('.');

/** CONTENT_DIR lets tests build a changed copy. */
export const CONTENT_DIR = resolve(process.env.CONTENT_DIR ?? 'content');

export const PUBLIC_DIR = resolve('public');
