import type { APIRoute, GetStaticPaths } from 'astro';
import { siteModel } from '../lib/content.ts';
import { pageDocuments } from '../lib/documents.ts';
import type { PageDocument } from '../lib/page-document.ts';
import { lastUpdated } from '../lib/page-dates.ts';
import { twinFile } from '../lib/twin-file.ts';
import { twinParam } from '../schemas/paths.ts';

/**
 * The markdown twin of every page (`/index.md`, `/services.md`, `/blog/<slug>.md`, ...) as the dev
 * server serves it. `astro build` writes the same files in one pass instead (build-data/twins.json
 * and src/build/twin-files-integration.ts): a route per twin would double the routes of the build.
 */
export const getStaticPaths = (async () => {
  if (!import.meta.env.DEV) return [];
  const model = await siteModel();
  return pageDocuments(model).map((doc) => ({
    params: { twin: twinParam(doc.path) },
    props: { doc, updated: lastUpdated(doc, model) },
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const { doc, updated } = props as { doc: PageDocument; updated: string };
  return new Response(twinFile(doc, updated), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
};
