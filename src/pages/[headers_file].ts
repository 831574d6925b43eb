import type { APIRoute, GetStaticPaths } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { headersFile } from '../lib/agents/headers-file.ts';
import { textResponse } from '../lib/agents/responses.ts';

// Astro ignores files whose name starts with "_" under src/pages, so the name comes in as a parameter.
export const getStaticPaths = (() => [{ params: { headers_file: '_headers' } }]) satisfies GetStaticPaths;

/** Netlify's headers file: per-page Link headers and the aipref Content-Usage header. */
export const GET: APIRoute = async () => textResponse(headersFile(await siteModel()));
