/**
 * The content collections' loaders, on Astro's documented loader API: every file is read and
 * checked (./check.ts), then each .md entry is parsed by the collection schema and stored with its
 * body. The site renders every body itself (src/lib/pages/render-markdown.ts).
 */
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader } from 'astro/loaders';
import { glob } from 'astro/loaders';
import { checkContentFiles, hasMdxFiles } from './check.ts';

/**
 * A function an integration may pass in `refreshContent({ context })`: called as the load begins,
 * so the caller knows the load ran (Astro skips a refresh while it reloads its content config).
 */
export const LOAD_STARTED = 'onLoadStarted';

/** Every content file under `base` (relative to the project root), checked, as one collection. */
export function contentLoader(base: string): Loader {
  return {
    name: 'content',
    load: async (context) => {
      const { config, store, refreshContextData, watcher } = context;
      const started = refreshContextData?.[LOAD_STARTED];
      if (typeof started === 'function') (started as () => void)();
      const dir = resolve(fileURLToPath(config.root), base);
      // The dev preview reloads the collection when a file under the folder changes (src/integrations/dev-preview.ts).
      watcher?.add(dir);
      const untouched = new Set(store.keys());
      // .mdx files are checked here and loaded by the `mdx` collection (src/content.config.ts).
      for (const file of checkContentFiles(dir, fileURLToPath(config.publicDir))) {
        if (file.absolute.endsWith('.mdx')) continue;
        untouched.delete(file.id);
        const digest = context.generateDigest(file.raw);
        if (store.get(file.id)?.digest === digest) continue;
        const data = await context.parseData({ id: file.id, data: file.data, filePath: file.absolute });
        const filePath = relative(fileURLToPath(config.root), file.absolute).split('\\').join('/');
        store.set({ id: file.id, data, body: file.body.trim(), filePath, digest });
      }
      for (const id of untouched) store.delete(id);
    },
  };
}

/**
 * The .mdx files, on Astro's glob loader (which makes them renderable through @astrojs/mdx). A
 * build of content without any skips it, and its warnings about an empty collection.
 */
export function mdxLoader(base: string): Loader {
  const inner = glob({ base, pattern: '**/*.mdx' });
  return {
    name: 'mdx',
    load: async (context) => {
      const dir = resolve(fileURLToPath(context.config.root), base);
      // The dev preview always watches, so a first .mdx file shows up without a restart.
      if (context.watcher || hasMdxFiles(dir)) await inner.load(context);
    },
  };
}
