import type { APIRoute } from 'astro';
import { knowledge } from '../lib/agents/agent-documents.ts';
import { jsonResponse } from '../lib/agents/responses.ts';

/** The function's facts, served by the dev preview only (DEV_KNOWLEDGE_PATH, ./handover.ts). */
export const GET: APIRoute = async () => jsonResponse(await knowledge());
