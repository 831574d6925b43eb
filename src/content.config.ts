import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { EntrySchema } from './schemas/entry.ts';

/** The one collection: every fact the site publishes lives in a file under content/. */
export const collections = {
  entries: defineCollection({
    // CONTENT_DIR lets tests build fixtures; editors never need it.
    loader: glob({ base: process.env.CONTENT_DIR ?? './content', pattern: '**/*.{md,mdx}' }),
    schema: EntrySchema,
  }),
};
