/**
 * The content collections' loaders, on Astro's documented loader API: every file is read and
 * checked (./check.ts), then each .md entry is parsed by the collection schema and stored with its
 * body. The site renders every body itself (src/lib/pages/render-markdown.ts).
 */
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { glob } from 'astro/loaders';
import { checkContentFiles, hasMdxFiles } from './check.ts';
import { ContentError } from './error.ts';

async function sync(base: string, context: LoaderContext): Promise<void> {
  const { config, store } = context;
  const root = fileURLToPath(config.root);
  const files = checkContentFiles(base, fileURLToPath(config.publicDir));
  const untouched = new Set(store.keys());
  // .mdx files are checked here and loaded by the `mdx` collection (src/content.config.ts).
  for (const file of files.filter((f) => !f.absolute.endsWith('.mdx'))) {
    untouched.delete(file.id);
    const digest = context.generateDigest(file.raw);
    if (store.get(file.id)?.digest === digest) continue;
    const data = await context.parseData({ id: file.id, data: file.data, filePath: file.absolute });
    const filePath = relative(root, file.absolute).split('\\').join('/');
    store.set({ id: file.id, data, body: file.body.trim(), filePath, digest });
  }
  for (const id of untouched) store.delete(id);
}

/**
 * A function an integration may pass in `refreshContent({ context })`: called as the load begins,
 * so the caller knows the load ran (Astro skips a refresh while it reloads its content config).
 */
export const LOAD_STARTED = 'onLoadStarted';

/** Every content file under `base` (relative to the project root), checked, as one collection. */
export function contentLoader(base: string): Loader {
  const watched = new WeakSet<object>();
  return {
    name: 'content',
    load: async (context) => {
      const started = context.refreshContextData?.[LOAD_STARTED];
      if (typeof started === 'function') (started as () => void)();
      const dir = resolve(fileURLToPath(context.config.root), base);
      await sync(dir, context);
      // The dev preview: any change under the folder reloads the collection (unchanged files are
      // skipped by digest); one listener per watcher, however often Astro loads again.
      if (!context.watcher || watched.has(context.watcher)) return;
      watched.add(context.watcher);
      context.watcher.add(dir);
      context.watcher.on('all', (_event, path) => {
        if (path.startsWith(dir) && /\.mdx?$/.test(path)) {
          // A content mistake is reported once, by the page and the terminal (src/lib/content/content.ts).
          sync(dir, context).catch((error: unknown) => {
            if (!(error instanceof ContentError)) context.logger.error((error as Error).message);
          });
        }
      });
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
