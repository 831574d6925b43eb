/**
 * Folders the build reads at render time. Astro runs from the project root, and page code is
 * bundled before it runs (so `import.meta.url` does not point into src/): paths resolve from the
 * working directory.
 */
import { resolve } from 'node:path';

/** The project root: Astro runs from it. */
export const ROOT = resolve('.');

/** The content collection; CONTENT_DIR lets tests build a changed copy. */
export const CONTENT_DIR = resolve(process.env.CONTENT_DIR ?? 'content');

/** Files served as they are (Astro's publicDir). */
export const PUBLIC_DIR = resolve('public');
