/**
 * The MCP side of POST /mcp: JSON-RPC 2.0 messages of MCP's Streamable HTTP transport, answered
 * statelessly with `application/json` (no session id, no event stream). Written here rather than
 * on the official SDK's server, whose zod and ajv would triple the shipped function (README,
 * "The MCP endpoint"); the SDK's client is what the tests talk to it with.
 *
 * Serves initialize, ping and the three proposal tools. A tool call becomes the same parsed
 * action the HTTP API hands to the pipeline; a refused request is a tool result with isError and
 * the problem details.
 */
import type { Knowledge } from '../../contract/knowledge.ts';
import type { ProposalAction } from '../../contract/fields.ts';
import { problem, withProblemBase, type Reply } from '../../contract/http.ts';
import { internalError, type ActionPipeline } from '../pipeline.ts';
import { logEvent } from '../submit/log.ts';
import { implementationName, userAgentProduct, type RequestSource } from '../source.ts';
import { actionOfTool, IDEMPOTENCY_KEY_ARGUMENT, PROPOSAL_TOOLS, toolSchemas } from '../tools.ts';
import { mcpInstructions, mcpServerInfo } from './server-info.ts';
import { jsonReply, RPC, rpcErrorResponse } from './json-rpc.ts';
import { PROTOCOL_VERSIONS } from './protocol-versions.ts';

/** Where a stateless client names itself on each request (SEP-2575); initialize is not repeated. */
const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';

type Id = string | number;
interface RpcRequest {
  jsonrpc: '2.0';
  id?: Id;
  method: string;
  params?: Record<string, unknown>;
}
type RpcReply = { jsonrpc: '2.0'; id: Id | null } & (
  { result: unknown } | { error: { code: number; message: string } }
);

const ok = (id: Id, result: unknown): RpcReply => ({ jsonrpc: '2.0', id, result });
const fail = (id: Id | null, code: number, message: string): RpcReply => ({
  jsonrpc: '2.0',
  id,
  error: { code, message },
});

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isRequest(value: unknown): value is RpcRequest {
  return (
    isObject(value) &&
    value['jsonrpc'] === '2.0' &&
    typeof value['method'] === 'string' &&
    (value['params'] === undefined || isObject(value['params'])) &&
    (value['id'] === undefined || typeof value['id'] === 'string' || Number.isInteger(value['id']))
  );
}

/** A client's answer to a server request, or an error; this server sends none, so they are ignored. */
const isResponse = (value: unknown): boolean =>
  isObject(value) && value['jsonrpc'] === '2.0' && ('result' in value || 'error' in value) && 'id' in value;

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
function toolResult(reply: Reply) {
  const text = (value: unknown) => [{ type: 'text' as const, text: JSON.stringify(value) }];
  if (reply.status < 300) return { content: text(reply.body), structuredContent: reply.body };
  // A header the HTTP API would send (Retry-After on 409 and 429) travels in the problem itself.
  const retryAfter = Number(reply.headers?.['Retry-After'] ?? reply.headers?.['retry-after']);
  const details = {
    ...(reply.body as Record<string, unknown>),
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retry_after_seconds: retryAfter } : {}),
  };
  return { isError: true, content: text(details) };
}

interface Call {
  req: Request;
  k: Knowledge;
  pipeline: ActionPipeline;
}

async function callTool({ req, k, pipeline }: Call, id: Id, params: Record<string, unknown>): Promise<RpcReply> {
  const name = params['name'];
  const action = typeof name === 'string' ? actionOfTool(name) : undefined;
  if (action === undefined) return fail(id, RPC.invalidParams, `Unknown tool: ${String(name)}`);
  const given = params['arguments'] ?? {};
  if (!isObject(given)) return fail(id, RPC.invalidParams, 'arguments must be an object.');
  const { [IDEMPOTENCY_KEY_ARGUMENT]: key, ...args } = given;
  const meta = isObject(params['_meta']) ? params['_meta'] : {};
  const source: RequestSource = {
    channel: 'mcp',
    client: implementationName(meta[CLIENT_INFO_META]) ?? userAgentProduct(req.headers.get('user-agent')),
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
        idempotencyKey: action === 'submit' && typeof key === 'string' ? key : null,
        source,
      });
      reply = routed.reply;
    } catch (error) {
      logEvent('unexpected_error', { name: error instanceof Error ? error.name : 'unknown', channel: 'mcp' });
      reply = internalError();
    }
  }
  return ok(id, toolResult(withProblemBase(reply, k.urls.agents)));
}

async function answerOne(call: Call, message: RpcRequest & { id: Id }): Promise<RpcReply> {
  const { k } = call;
  const params = message.params ?? {};
  switch (message.method) {
    case 'initialize': {
      const asked = params['protocolVersion'];
      const protocolVersion = (PROTOCOL_VERSIONS as readonly unknown[]).includes(asked)
        ? (asked as string)
        : PROTOCOL_VERSIONS[0];
      return ok(message.id, {
        protocolVersion,
        capabilities: { tools: { listChanged: false } },
        serverInfo: mcpServerInfo(k),
        instructions: mcpInstructions(k),
      });
    }
    case 'ping':
      return ok(message.id, {});
    case 'tools/list':
      return ok(message.id, { tools: tools(k) });
    case 'tools/call':
      return callTool(call, message.id, params);
    default:
      return fail(message.id, RPC.methodNotFound, `Method not found: ${message.method}`);
  }
}

/**
 * Answers one POST (its body already parsed): a request gets its response as JSON, notifications
 * and responses get 202 with no body. A batch (protocol 2025-03-26) is answered as one.
 */
export async function answer(
  req: Request,
  message: unknown,
  k: Knowledge,
  pipeline: ActionPipeline,
): Promise<Response> {
  const version = req.headers.get('mcp-protocol-version');
  const messages = Array.isArray(message) ? message : [message];
  const initializing = messages.some((m) => isObject(m) && m['method'] === 'initialize');
  if (!initializing && version !== null && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
    return rpcErrorResponse(
      400,
      RPC.serverError,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(version.slice(0, 40))}; supported: ${PROTOCOL_VERSIONS.join(', ')}.`,
    );
  }
  if (messages.length === 0 || !messages.every((m) => isRequest(m) || isResponse(m))) {
    return rpcErrorResponse(400, RPC.invalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message.');
  }
  const requests = messages.filter((m): m is RpcRequest & { id: Id } => isRequest(m) && m.id !== undefined);
  if (requests.length === 0) return new Response(null, { status: 202, headers: { 'cache-control': 'no-store' } });
  const call = { req, k, pipeline };
  const replies: RpcReply[] = [];
  // One after another: two submits in one batch must not race for the same key.
  for (const request of requests) replies.push(await answerOne(call, request));
  return jsonReply(200, Array.isArray(message) ? replies : replies[0]);
}
