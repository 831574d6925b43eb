import type { APIRoute } from 'astro';
import { capabilitiesSchema } from '../../lib/agent-documents.ts';
import { jsonResponse } from '../../lib/json-response.ts';

export const GET: APIRoute = async () => jsonResponse(await capabilitiesSchema());
