import type { APIRoute, GetStaticPaths } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { pageDocuments } from '../lib/pages/documents.ts';
import type { PageDocument } from '../lib/pages/page-document.ts';
import { lastUpdated } from '../lib/pages/page-dates.ts';
import { twinFile, twinFiles } from '../lib/pages/twin-file.ts';
import { handOver } from '../integrations/handover.ts';
import { twinParam } from '../contract/paths.ts';

/**
 * The markdown twin of every page (`/index.md`, `/services.md`, `/blog/<slug>.md`, ...) as the dev
 * server serves it. In `astro build` this route hands every twin over instead, and
 * src/integrations/build-outputs.ts writes them in one pass: a route per twin would double the
 * routes of the build.
 */
export const getStaticPaths = (async () => {
  const model = await siteModel();
  // Always: a build under NODE_ENV=test (the tests') runs with import.meta.env.DEV set.
  handOver(
    'twins',
    twinFiles(pageDocuments(model), (doc) => lastUpdated(doc, model)),
  );
  if (!import.meta.env.DEV) return [];
  return pageDocuments(model).map((doc) => ({
    params: { twin: twinParam(doc.path) },
    props: { doc, updated: lastUpdated(doc, model) },
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => {
  const { doc, updated } = props as { doc: PageDocument; updated: string };
  return new Response(twinFile(doc, updated), { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });
};
