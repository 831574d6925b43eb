/**
 * Placeholders in .mdx bodies on the page. MDX would read `{partner}` as a JavaScript expression,
 * so this integration fills them in the source before @astrojs/mdx compiles it (it must be listed
 * before mdx()), with the same function as every markdown text (src/lib/content/placeholders.ts), which
 * also reports misspelt ones when the body's markdown form is read.
 */
import type { AstroIntegration } from 'astro';
import type { SiteData } from '../lib/content/entry-schema.ts';
import { expandPlaceholders } from '../lib/content/placeholders.ts';

export function mdxPlaceholders(site: SiteData, contentDir: string): AstroIntegration {
  return {
    name: 'mdx-placeholders',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'mdx-placeholders',
                enforce: 'pre',
                transform(code, id) {
                  const file = id.split('?')[0] ?? id;
                  if (!file.endsWith('.mdx') || !file.startsWith(contentDir)) return undefined;
                  return { code: expandPlaceholders(code, site), map: null };
                },
              },
            ],
          },
        });
      },
    },
  };
}
