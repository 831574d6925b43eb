/** The content collection's loader: checkContentFiles (src/lib/content-check.ts), then Astro's glob loader. */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContentEntryType } from 'astro';
import type { Loader, LoaderContext } from 'astro/loaders';
import { glob } from 'astro/loaders';
import { checkContentFiles, PATTERN } from './content-check.ts';
import { scanLinks } from './content-links.ts';

/** Astro hands its glob loader the content entry types (public: integrations add them) in the context. */
type GlobContext = LoaderContext & { entryTypes?: Map<string, ContentEntryType> };

/**
 * The site renders every body itself (src/lib/render-markdown.ts: pages, twins and llms files share
 * one markdown), so the HTML Astro's markdown pipeline would render into the content store is never
 * read; rendering and storing it cost a second pass over every entry. What Astro does need from
 * that render is the images a body uses (`metadata.imagePaths`), which it imports for the image
 * pipeline: the same rule as Astro's own (a decoded URL that is neither absolute nor rooted at
 * `/`), read from the links the build already scans.
 */
function imagePathsOnly(markdown: ContentEntryType): ContentEntryType {
  return {
    ...markdown,
    getRenderFunction: () =>
      Promise.resolve(({ body }) => {
        const imagePaths = [
          ...new Set(
            scanLinks(body ?? '', 1)
              .filter((l) => l.kind === 'image')
              .map((l) => decodeURI(l.href))
              .filter((url) => !URL.canParse(url) && !url.startsWith('/')),
          ),
        ];
        return Promise.resolve({ html: '', metadata: { imagePaths } });
      }),
  };
}

/**
 * A function an integration may pass in `refreshContent({ context })`: called as the load begins,
 * so the caller knows the load ran (Astro skips a refresh while it reloads its content config).
 */
export const LOAD_STARTED = 'onLoadStarted';

/** Astro's glob loader over `base`, after checkContentFiles. */
export function contentLoader(base: string): Loader {
  const inner = glob({ base, pattern: PATTERN });
  return {
    name: 'content',
    load: async (context: GlobContext) => {
      const started = context.refreshContextData?.[LOAD_STARTED];
      if (typeof started === 'function') (started as () => void)();
      const dir = resolve(fileURLToPath(context.config.root), base);
      // The dev preview reads every file again when any changes (src/build/dev-content-gate.ts);
      // the glob loader's own reload of one file at the first event could read it half written.
      context.watcher?.add(dir);
      checkContentFiles(dir, fileURLToPath(context.config.publicDir));
      const { watcher: _reloadsEverything, ...unwatched } = context;
      const markdown = context.entryTypes?.get('.md');
      // Should Astro stop passing entry types, its own render runs: slower, never wrong.
      if (!context.entryTypes || !markdown) return inner.load(unwatched);
      const entryTypes = new Map([...context.entryTypes, ['.md', imagePathsOnly(markdown)]]);
      return inner.load({ ...unwatched, entryTypes } as GlobContext);
    },
  };
}
