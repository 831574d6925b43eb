import { defineCollection } from 'astro:content';
import { contentLoader } from './lib/content-loader.ts';
import { EntrySchema } from './schemas/entry.ts';

/** The one collection: every fact the site publishes lives in a file under content/. */
export const collections = {
  entries: defineCollection({
    // CONTENT_DIR lets tests build fixtures; editors never need it.
    loader: contentLoader(process.env.CONTENT_DIR ?? './content'),
    schema: EntrySchema,
  }),
};
