import type { APIRoute } from 'astro';
import { siteModel } from '../../lib/content.ts';
import { pageDocuments } from '../../lib/documents.ts';
import { lastUpdated } from '../../lib/page-dates.ts';
import { twinFiles } from '../../lib/twin-file.ts';

/** Every markdown twin in one document; the twin-files integration writes them out and removes it. */
export const GET: APIRoute = async () => {
  const model = await siteModel();
  const files = twinFiles(pageDocuments(model), (doc) => lastUpdated(doc, model));
  return new Response(JSON.stringify(files), { headers: { 'Content-Type': 'application/json' } });
};
