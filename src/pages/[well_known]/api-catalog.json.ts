import type { APIRoute, GetStaticPaths } from 'astro';
import { jsonResponse } from '../../lib/agents/responses.ts';
import { apiCatalog } from '../../lib/agents/catalogs.ts';

// Astro skips dot-folders under src/pages, so the folder name comes in as a parameter. The file
// gets a .json extension (static servers type files by extension); netlify.toml rewrites the
// published path /.well-known/api-catalog to it and gives it the RFC 9727 media type.
export const getStaticPaths = (() => [{ params: { well_known: '.well-known' } }]) satisfies GetStaticPaths;

/** RFC 9727 API catalog: where each API is described and documented. */
export const GET: APIRoute = () => jsonResponse(apiCatalog());
