import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { EntrySchema } from './schemas/entry.ts';

/** The one collection: every fact the site publishes lives in a file under content/. */
export const collections = {
  entries: defineCollection({
    loader: glob({ base: './content', pattern: '**/*.{md,mdx}' }),
    schema: EntrySchema,
  }),
};
