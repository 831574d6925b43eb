/** The content collection's loader: checkContentFiles (src/lib/content-check.ts), then Astro's glob loader. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader } from 'astro/loaders';
import { glob } from 'astro/loaders';
import { checkContentFiles, PATTERN } from './content-check.ts';

/** Astro's glob loader over `base`, after checkContentFiles. */
export function contentLoader(base: string): Loader {
  const inner = glob({ base, pattern: PATTERN });
  return {
    name: 'content',
    load: async (context) => {
      checkContentFiles(resolve(fileURLToPath(context.config.root), base), fileURLToPath(context.config.publicDir));
      return inner.load(context);
    },
  };
}
