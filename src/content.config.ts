import { defineCollection } from 'astro:content';
import { contentLoader, mdxLoader } from './lib/content/loader.ts';
import { EntrySchema } from './lib/content/entry-schema.ts';

// CONTENT_DIR lets tests build fixtures; editors never need it.
const base = process.env.CONTENT_DIR ?? './content';

/**
 * Every fact the site publishes lives in a file under content/: `entries` holds the .md files
 * (and checks every file first), `mdx` the .mdx files, which @astrojs/mdx renders with the site's
 * components (src/lib/content/mdx-components.ts). src/lib/content/content.ts reads both as one.
 */
export const collections = {
  entries: defineCollection({ loader: contentLoader(base), schema: EntrySchema }),
  mdx: defineCollection({ loader: mdxLoader(base), schema: EntrySchema }),
};
