import type { APIRoute } from 'astro';
import { capabilitiesSchema } from '../../lib/agents/agent-documents.ts';
import { jsonResponse } from '../../lib/agents/responses.ts';

export const GET: APIRoute = async () => jsonResponse(await capabilitiesSchema());
