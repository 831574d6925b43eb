import type { APIRoute, GetStaticPaths } from 'astro';
import { siteModel } from '../lib/content.ts';
import { pageDocuments, twinMarkdown, type PageDocument } from '../lib/documents.ts';

/** The markdown twin of every page: `/index.md`, `/services.md`, `/blog/<slug>.md`, ... */
export const getStaticPaths = (async () =>
  pageDocuments(await siteModel()).map((doc) => ({
    params: { twin: doc.path === '/' ? 'index' : doc.path.slice(1) },
    props: { doc },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) =>
  new Response(twinMarkdown((props as { doc: PageDocument }).doc), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
