import type { APIRoute } from 'astro';
import { CAPABILITIES_SCHEMA_PATH, knowledge } from '../lib/agent-documents.ts';
import { jsonResponse } from '../lib/json-response.ts';
import { buildOpenApi } from '../lib/openapi.ts';
import { absolute } from '../lib/urls.ts';

export const GET: APIRoute = async () =>
  jsonResponse(
    buildOpenApi(await knowledge(), absolute(CAPABILITIES_SCHEMA_PATH), absolute('/api/proposal')),
  );
