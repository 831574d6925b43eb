import type { APIRoute } from 'astro';
import { knowledge } from '../../lib/agent-documents.ts';
import { jsonResponse } from '../../lib/json-response.ts';

/** Facts for the proposal function; scripts/compile-contract.ts moves this out of dist/ into .generated/. */
export const GET: APIRoute = async () => jsonResponse(await knowledge());
