import type { APIRoute } from 'astro';
import { proposalContract } from '../../lib/agents/agent-documents.ts';
import { jsonResponse } from '../../lib/agents/responses.ts';

/** Served at GET /api/proposal (netlify.toml rewrite); POST goes to the function. */
export const GET: APIRoute = async () => jsonResponse(await proposalContract());
