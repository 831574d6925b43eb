import { defineCollection } from 'astro:content';
import { contentLoader, mdxLoader } from './lib/content/loader.ts';
import { EntrySchema } from './lib/content/entry-schema.ts';
import { CONTENT_DIR } from './lib/content/project-dirs.ts';

/** `entries`: the .md files (every file checked first); `mdx`: the .mdx files, for @astrojs/mdx. */
export const collections = {
  entries: defineCollection({ loader: contentLoader(CONTENT_DIR), schema: EntrySchema }),
  mdx: defineCollection({ loader: mdxLoader(CONTENT_DIR), schema: EntrySchema }),
};
