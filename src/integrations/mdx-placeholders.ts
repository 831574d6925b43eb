/**
 * Placeholders in .mdx bodies on the page. MDX would read `{partner}` as a JavaScript expression,
 * so this Vite plugin fills them in the source before @astrojs/mdx compiles it (astro.config.mjs
 * lists it ahead of mdx()'s), with the same function as every markdown text
 * (src/lib/content/placeholders.ts), which also reports misspelt ones when the body's markdown form is read.
 */
import type { Plugin } from 'vite';
import type { SiteData } from '../lib/content/entry-schema.ts';
import { expandPlaceholders } from '../lib/content/placeholders.ts';

export function mdxPlaceholders(site: SiteData, contentDir: string): Plugin {
  return {
    name: 'mdx-placeholders',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (!file.endsWith('.mdx') || !file.startsWith(contentDir)) return undefined;
      return { code: expandPlaceholders(code, site), map: null };
    },
  };
}
