import type { APIRoute } from 'astro';
import { capabilitiesSchema, knowledge } from '../lib/agents/agent-documents.ts';
import { jsonResponse } from '../lib/agents/responses.ts';
import { buildOpenApi } from '../lib/agents/openapi.ts';
import { absolute } from '../lib/pages/urls.ts';
import { DOCUMENT_PATHS } from '../contract/paths.ts';

export const GET: APIRoute = async () =>
  jsonResponse(buildOpenApi(await knowledge(), await capabilitiesSchema(), absolute(DOCUMENT_PATHS.proposalApi)));
