import type { APIRoute, GetStaticPaths } from 'astro';
import {
  capabilitiesDocument,
  capabilitiesSchema,
  knowledge,
  proposalContract,
} from '../lib/agents/agent-documents.ts';
import { aiCatalog, apiCatalog } from '../lib/agents/catalogs.ts';
import { publishedSkills, skillsIndex } from '../lib/agents/agent-skills.ts';
import { buildOpenApi } from '../lib/agents/openapi.ts';
import { jsonResponse } from '../lib/agents/responses.ts';
import { siteModel } from '../lib/content/content.ts';
import { mcpServerCard } from '../proposal/mcp/server-info.ts';

/**
 * Every JSON document, by its file. A rest parameter, because Astro skips dot-folders such as
 * .well-known under src/pages. netlify.toml rewrites the published paths without `.json` to
 * these files (/api/proposal: GET only, POST goes to the function) and gives the catalogs their
 * media types.
 */
const DOCUMENTS: Record<string, () => Promise<unknown>> = {
  'api/proposal': proposalContract,
  'api/capabilities': capabilitiesDocument,
  'schemas/capabilities.schema': capabilitiesSchema,
  openapi: async () => buildOpenApi(await knowledge(), await capabilitiesSchema()),
  '.well-known/api-catalog': async () => apiCatalog(),
  '.well-known/ai-catalog': async () => aiCatalog(await knowledge(), (await siteModel()).site.data),
  '.well-known/mcp/server-card': async () => mcpServerCard(await knowledge()),
  // Every skill with the sha256 digests of the files served beside it.
  '.well-known/agent-skills/index': async () => skillsIndex(publishedSkills(await knowledge())),
};

export const getStaticPaths = (() =>
  Object.keys(DOCUMENTS).map((doc) => ({ params: { doc } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => jsonResponse(await DOCUMENTS[params.doc!]!());
