/** The collections' loaders, on Astro's documented loader API; the site renders every body itself. */
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Loader } from 'astro/loaders';
import { glob } from 'astro/loaders';
import { checkContentFiles, hasMdxFiles } from './check.ts';

/** A `refreshContent({ context })` callback called as the load begins: Astro may skip a refresh. */
export const LOAD_STARTED = 'onLoadStarted';

/** Every content file under `dir`, checked, as one collection. */
export function contentLoader(dir: string): Loader {
  return {
    name: 'content',
    load: async (context) => {
      const { config, store, refreshContextData, watcher } = context;
      const started = refreshContextData?.[LOAD_STARTED];
      if (typeof started === 'function') (started as () => void)();
      watcher?.add(dir);
      const untouched = new Set(store.keys());
      // .mdx files are checked here and loaded by the `mdx` collection (src/content.config.ts). A file with a
      // problem is left out, so the rest loads and the site model reports every problem at once (content.ts).
      for (const file of checkContentFiles(dir, fileURLToPath(config.publicDir)).files) {
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

/** The .mdx files on Astro's glob loader (renderable by @astrojs/mdx), but those with a problem; skipped when there are none. */
export function mdxLoader(dir: string): Loader {
  // One glob loader per set of files left out: each sets up its own file watcher once.
  const loaders = new Map<string, Loader>();
  return {
    name: 'mdx',
    load: async (context) => {
      // With no .mdx file there is nothing to load (and the glob loader would warn of it); the dev
      // preview reloads every collection on any change, so a first .mdx file shows up without a restart.
      if (!hasMdxFiles(dir)) return context.store.clear();
      const { failed } = checkContentFiles(dir, fileURLToPath(context.config.publicDir));
      const skip = failed.filter((f) => f.shown.endsWith('.mdx')).map((f) => `!${f.shown.slice('content/'.length)}`);
      const key = skip.join('\n');
      if (!loaders.has(key)) loaders.set(key, glob({ base: pathToFileURL(dir), pattern: ['**/*.mdx', ...skip] }));
      await loaders.get(key)!.load(context);
    },
  };
}
