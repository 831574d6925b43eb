import type { APIRoute } from 'astro';
import { knowledge } from '../../lib/agent-documents.ts';
import { jsonResponse } from '../../lib/json-response.ts';

/** Facts for the proposal function; the function-data integration moves them out of dist/ into .generated/. */
export const GET: APIRoute = async () => jsonResponse(await knowledge());
