import type { APIRoute } from 'astro';
import { capabilitiesDocument } from '../../lib/agents/agent-documents.ts';
import { jsonResponse } from '../../lib/agents/responses.ts';

/** Served at /api/capabilities (netlify.toml rewrite). */
export const GET: APIRoute = async () => jsonResponse(await capabilitiesDocument());
