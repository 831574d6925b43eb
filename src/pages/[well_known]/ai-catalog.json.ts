import type { APIRoute, GetStaticPaths } from 'astro';
import { knowledge } from '../../lib/agents/agent-documents.ts';
import { aiCatalog } from '../../lib/agents/catalogs.ts';
import { siteModel } from '../../lib/content/content.ts';
import { jsonResponse } from '../../lib/agents/responses.ts';

// Astro skips dot-folders under src/pages, so the folder name comes in as a parameter.
export const getStaticPaths = (() => [{ params: { well_known: '.well-known' } }]) satisfies GetStaticPaths;

/** Agentic Resource Discovery catalog, found via <link rel="ai-catalog">, the Link header and robots.txt. */
export const GET: APIRoute = async () => jsonResponse(aiCatalog(await knowledge(), (await siteModel()).site.data));
