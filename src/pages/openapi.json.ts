import type { APIRoute } from 'astro';
import { capabilitiesSchema, knowledge } from '../lib/agent-documents.ts';
import { jsonResponse } from '../lib/json-response.ts';
import { buildOpenApi } from '../lib/openapi.ts';
import { absolute } from '../lib/urls.ts';
import { DOCUMENT_PATHS } from '../schemas/paths.ts';

export const GET: APIRoute = async () =>
  jsonResponse(buildOpenApi(await knowledge(), await capabilitiesSchema(), absolute(DOCUMENT_PATHS.proposalApi)));
