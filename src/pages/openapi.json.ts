import type { APIRoute } from 'astro';
import { capabilitiesSchema, knowledge } from '../lib/agents/agent-documents.ts';
import { jsonResponse } from '../lib/agents/responses.ts';
import { buildOpenApi } from '../lib/agents/openapi.ts';

export const GET: APIRoute = async () => jsonResponse(buildOpenApi(await knowledge(), await capabilitiesSchema()));
