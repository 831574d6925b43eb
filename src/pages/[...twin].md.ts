import type { APIRoute, GetStaticPaths } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { pageDocuments, twinFile } from '../lib/pages/documents.ts';
import type { PageDocument } from '../lib/pages/page-document.ts';
import { handOver } from '../lib/handover.ts';
import { twinParam, twinPath } from '../contract/paths.ts';

/**
 * The markdown twin of every page (`/index.md`, `/services.md`, `/blog/<slug>.md`, ...) as the dev
 * server serves it. In `astro build` this route hands every twin over instead, and
 * src/integrations/build-outputs.ts writes them in one pass: a route per twin would double the
 * routes of the build.
 */
export const getStaticPaths = (async () => {
  const docs = pageDocuments(await siteModel());
  // Always: a build under NODE_ENV=test (the tests') runs with import.meta.env.DEV set.
  handOver(
    'twins',
    docs.map((doc) => [twinPath(doc.path).slice(1), twinFile(doc)]),
  );
  if (!import.meta.env.DEV) return [];
  return docs.map((doc) => ({ params: { twin: twinParam(doc.path) }, props: { doc } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(twinFile((props as { doc: PageDocument }).doc), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
