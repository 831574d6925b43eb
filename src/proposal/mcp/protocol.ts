/**
 * The MCP side of POST /mcp, on the official SDK: a Server and a stateless Streamable HTTP
 * transport per request (no session id, JSON replies), serving the three proposal tools. The SDK
 * negotiates the protocol version among those the specification lists and checks the
 * MCP-Protocol-Version header. A tool call becomes the same parsed action the HTTP API hands
 * to the pipeline; a refused request is a tool result with isError and the problem details.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Knowledge } from '../knowledge.ts';
import type { ProposalAction } from '../fields.ts';
import { problem, withProblemBase, type Reply } from '../http.ts';
import { internalError, type ActionPipeline } from '../pipeline.ts';
import { logEvent } from '../submit/log.ts';
import { implementationName, userAgentProduct, type RequestSource } from '../source.ts';
import { actionOfTool, IDEMPOTENCY_KEY_ARGUMENT, PROPOSAL_TOOLS, toolSchemas } from '../tools.ts';
import { mcpInstructions, mcpServerInfo } from './server-info.ts';

/** Where a stateless client names itself on each request (SEP-2575); initialize is not repeated. */
const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';

const ACTIONS = Object.keys(PROPOSAL_TOOLS) as ProposalAction[];

/** The tools as tools/list returns them; computed once per function instance. */
let listed: { knowledge: Knowledge; tools: object[] } | undefined;
function tools(k: Knowledge): object[] {
  if (listed?.knowledge !== k) {
    const schemas = toolSchemas(k);
    listed = {
      knowledge: k,
      tools: ACTIONS.map((action) => {
        const { name, title, description, annotations } = PROPOSAL_TOOLS[action];
        return { name, title, description, ...schemas[action], annotations: { title, ...annotations } };
      }),
    };
  }
  return listed.tools;
}

/** The reply as a tool result: the body as structured content, or the problem with isError. */
function toolResult(reply: Reply): CallToolResult {
  const text = (value: unknown) => [{ type: 'text' as const, text: JSON.stringify(value) }];
  if (reply.status < 300) {
    return { content: text(reply.body), structuredContent: reply.body as Record<string, unknown> };
  }
  // A header the HTTP API would send (Retry-After on 409 and 429) travels in the problem itself.
  const retryAfter = Number(reply.headers?.['Retry-After'] ?? reply.headers?.['retry-after']);
  const details = {
    ...(reply.body as Record<string, unknown>),
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retry_after_seconds: retryAfter } : {}),
  };
  return { isError: true, content: text(details) };
}

function server(req: Request, k: Knowledge, pipeline: ActionPipeline): Server {
  const mcp = new Server(mcpServerInfo(k), { capabilities: { tools: {} }, instructions: mcpInstructions(k) });
  mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools(k) }));
  mcp.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const action = actionOfTool(params.name);
    if (action === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const { [IDEMPOTENCY_KEY_ARGUMENT]: key, ...args } = params.arguments ?? {};
    const source: RequestSource = {
      channel: 'mcp',
      client: implementationName(params._meta?.[CLIENT_INFO_META]) ?? userAgentProduct(req.headers.get('user-agent')),
    };
    let reply: Reply;
    if (action === 'submit' && key !== undefined && typeof key !== 'string') {
      reply = problem('invalid-idempotency-key', `The ${IDEMPOTENCY_KEY_ARGUMENT} argument must be a string.`);
    } else {
      // Other actions take no key: sent to them, it is a field their schema does not allow.
      const body = action === 'submit' || key === undefined ? args : { ...args, [IDEMPOTENCY_KEY_ARGUMENT]: key };
      try {
        const routed = await pipeline.run({
          body: { ...body, action },
          idempotencyKey: action === 'submit' ? ((key as string | undefined) ?? null) : null,
          source,
        });
        reply = routed.reply;
      } catch (error) {
        logEvent('unexpected_error', { name: error instanceof Error ? error.name : 'unknown', channel: 'mcp' });
        reply = internalError();
      }
    }
    return toolResult(withProblemBase(reply, k.urls.agents));
  });
  return mcp;
}

/** Answers one POST of JSON-RPC messages (already parsed) and closes the per-request server. */
export async function answer(
  req: Request,
  message: unknown,
  k: Knowledge,
  pipeline: ActionPipeline,
): Promise<Response> {
  // No sessionIdGenerator: stateless, no Mcp-Session-Id is issued or required.
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  const mcp = server(req, k, pipeline);
  await mcp.connect(transport);
  try {
    const response = await transport.handleRequest(req, { parsedBody: message });
    const headers = new Headers(response.headers);
    headers.set('cache-control', 'no-store');
    return new Response(response.body, { status: response.status, headers });
  } finally {
    await mcp.close();
  }
}
