import { defineCollection } from 'astro:content';
import { contentLoader, mdxLoader } from './lib/content/loader.ts';
import { EntrySchema } from './lib/content/entry-schema.ts';

// CONTENT_DIR lets tests build fixtures; editors never need it.
const base = process.env.CONTENT_DIR ?? './content';

/** `entries`: the .md files (every file checked first); `mdx`: the .mdx files, for @astrojs/mdx. */
export const collections = {
  entries: defineCollection({ loader: contentLoader(base), schema: EntrySchema }),
  mdx: defineCollection({ loader: mdxLoader(base), schema: EntrySchema }),
};
