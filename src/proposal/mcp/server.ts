/**
 * The MCP server, through the official SDK v2 (@modelcontextprotocol/server): one tool definition
 * per action serves both protocol eras. createMcpHandler answers 2026-07-28 (server/discover, the
 * per-request `_meta` envelope, the Mcp-Method/Mcp-Name header checks, cache hints) and the 2025
 * revisions through its stateless legacy path. Loaded by ./endpoint.ts only when an MCP message
 * arrives, so POST /api/proposal never loads the SDK (./sdk.ts).
 *
 * The 2025 leg is wired by hand as the SDK documents (isLegacyRequest in front of a `legacy:
 * 'reject'` handler) for one difference: its stateless fallback answers with an event stream, and
 * this endpoint answers every message with one JSON body in both eras.
 */
import type {
  CallToolResult,
  jsonSchemaValidator,
  JsonSchemaType,
  JsonSchemaValidator,
  ServerContext,
} from '@modelcontextprotocol/server';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Knowledge } from '../../contract/knowledge.ts';
import { problem, withProblemBase, type Reply } from '../../contract/http.ts';
import { ACTIONS, type ProposalAction } from '../../contract/fields.ts';
import { internalError, type ActionPipeline } from '../pipeline.ts';
import { errorName, logEvent } from '../submit/log.ts';
import { implementationName, userAgentProduct } from '../source.ts';
import { IDEMPOTENCY_KEY_ARGUMENT, mcpTools } from '../tools.ts';
import { mcpInstructions, mcpServerInfo, PROTOCOL_VERSIONS } from './server-info.ts';
import { MCP_WORDS, toolResult, withMissingKey } from './tool-result.ts';

/** The SDK as this module receives it from the function entry (./sdk.ts says why). */
export type McpSdk = typeof import('./sdk.ts');

/**
 * The contract's JSON Schemas go to tools/list as they are; the SDK checks nothing against them.
 * The pipeline is the one validator of every channel (ajv with the contract's compiled validators),
 * and its refusals are problem details an agent can act on, which an SDK-side check would pre-empt
 * with a bare -32602 message. Results come from the same code the HTTP API answers with.
 */
const PIPELINE_VALIDATES: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (data) => ({ valid: true, data: data as T, errorMessage: undefined });
  },
};

/** The contract's schemas are plain JSON Schema objects; the SDK's type spells out every keyword. */
const asJsonSchema = (schema: object) => schema as JsonSchemaType;

/** tools/list and server/discover change only with a deploy: clients may keep them five minutes. */
const CACHE_HINT = { ttlMs: 5 * 60 * 1000, cacheScope: 'public' as const };

/**
 * The client's name for itself: `clientInfo` under its `_meta` key (SEP-2575; every 2026-07-28
 * request carries it, and a 2025-era stateless client may send it too), else its User-Agent. The
 * SDK lifts the reserved `_meta` keys into `ctx.mcpReq.envelope`.
 */
function clientOf(ctx: ServerContext, sdk: McpSdk): string | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (
    implementationName(envelope?.[sdk.CLIENT_INFO_META_KEY]) ??
    userAgentProduct(ctx.http?.req?.headers.get('user-agent') ?? null)
  );
}

async function runTool(
  sdk: McpSdk,
  action: ProposalAction,
  given: Record<string, unknown>,
  ctx: ServerContext,
  k: Knowledge,
  pipeline: ActionPipeline,
): Promise<CallToolResult> {
  const { [IDEMPOTENCY_KEY_ARGUMENT]: key, ...args } = given;
  let reply: Reply;
  if (action === 'submit' && key !== undefined && typeof key !== 'string') {
    reply = problem('invalid-idempotency-key', `The ${IDEMPOTENCY_KEY_ARGUMENT} argument must be a string.`);
  } else {
    try {
      reply = await pipeline.run({
        // Other actions take no key: sent to them, it is a field their schema does not allow.
        body: { ...(action === 'submit' ? args : given), action },
        idempotencyKey: action === 'submit' && typeof key === 'string' ? key : null,
        door: MCP_WORDS,
        source: { channel: 'mcp', client: clientOf(ctx, sdk) },
      });
    } catch (error) {
      logEvent('unexpected_error', { name: errorName(error), channel: 'mcp' });
      reply = internalError();
    }
  }
  if (action === 'submit' && key === undefined) reply = withMissingKey(reply);
  return toolResult(withProblemBase(reply, k.urls.agents));
}

function buildServer(sdk: McpSdk, k: Knowledge, pipeline: ActionPipeline): McpServer {
  const server = new sdk.McpServer(mcpServerInfo(k), {
    capabilities: { tools: { listChanged: false } },
    instructions: mcpInstructions(k),
    supportedProtocolVersions: [...PROTOCOL_VERSIONS],
    cacheHints: { 'tools/list': CACHE_HINT, 'server/discover': CACHE_HINT },
  });
  const tools = mcpTools(k);
  ACTIONS.forEach((action, i) => {
    const { name, title, description, inputSchema, outputSchema, annotations } = tools[i]!;
    server.registerTool(
      name,
      {
        title,
        description,
        inputSchema: sdk.fromJsonSchema<Record<string, unknown>>(asJsonSchema(inputSchema), PIPELINE_VALIDATES),
        outputSchema: sdk.fromJsonSchema(asJsonSchema(outputSchema), PIPELINE_VALIDATES),
        annotations,
      },
      (args, ctx) => runTool(sdk, action, args, ctx, k, pipeline),
    );
  });
  return server;
}

/** Reporting only: the class name, never a message or stack that could carry a value. */
const onerror = (error: Error) => logEvent('mcp_error', { name: errorName(error) });

/** A 2025-era request: a fresh server on the SDK's stateless transport, answering JSON. */
async function answerLegacy(sdk: McpSdk, server: McpServer, req: Request, parsedBody: unknown): Promise<Response> {
  const transport = new sdk.WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  transport.onerror = onerror;
  await server.connect(transport);
  try {
    return await transport.handleRequest(req, { parsedBody });
  } finally {
    await Promise.allSettled([transport.close(), server.close()]);
  }
}

/** The web-standard fetch handler of both eras; every reply `application/json`, never an event stream or a session. */
/** `sdk`: the SDK module, loaded by the function entry (./sdk.ts says why). */
export function createMcpServer(sdk: McpSdk, k: Knowledge, pipeline: ActionPipeline, maxRequestBodySize: number) {
  const modern = sdk.createMcpHandler(() => buildServer(sdk, k, pipeline), {
    legacy: 'reject',
    responseMode: 'json',
    maxRequestBodySize,
    onerror,
  });
  return {
    async fetch(req: Request, { parsedBody }: { parsedBody: unknown }): Promise<Response> {
      return (await sdk.isLegacyRequest(req, parsedBody, { maxRequestBodySize }))
        ? answerLegacy(sdk, buildServer(sdk, k, pipeline), req, parsedBody)
        : modern.fetch(req, { parsedBody });
    },
  };
}
