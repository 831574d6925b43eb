/** MDX would read `{partner}` as JavaScript, so placeholders in .mdx bodies are filled in before it compiles. */
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
