import type { APIRoute, GetStaticPaths } from 'astro';
import { knowledge } from '../../../lib/agents/agent-documents.ts';
import { jsonResponse } from '../../../lib/agents/responses.ts';
import { mcpServerCard } from '../../../proposal/mcp/server-info.ts';

export const getStaticPaths = (() => [{ params: { well_known: '.well-known' } }]) satisfies GetStaticPaths;

/** The MCP server card: what the function's /mcp endpoint is, before a client connects. */
export const GET: APIRoute = async () => jsonResponse(mcpServerCard(await knowledge()));
