import type { APIRoute } from 'astro';
import { capabilitiesDocument } from '../../lib/agent-documents.ts';
import { jsonResponse } from '../../lib/json-response.ts';

/** Served at /api/capabilities (netlify.toml rewrite). */
export const GET: APIRoute = async () => jsonResponse(await capabilitiesDocument());
