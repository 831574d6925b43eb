/**
 * MCP's Streamable HTTP transport, stateless, answered with `application/json`. Hand-written: the
 * official SDK's server (zod, ajv) would triple the shipped function (README, "The MCP endpoint").
 */
import type { Knowledge } from '../../contract/knowledge.ts';
import { problem, withProblemBase, type Reply } from '../../contract/http.ts';
import { internalError, type ActionPipeline } from '../pipeline.ts';
import { isObject } from '../submit/record.ts';
import { errorName, logEvent } from '../submit/log.ts';
import { implementationName, userAgentProduct } from '../source.ts';
import { actionOfTool, IDEMPOTENCY_KEY_ARGUMENT, mcpTools } from '../tools.ts';
import { mcpInstructions, mcpServerInfo, PROTOCOL_VERSIONS } from './server-info.ts';
import { jsonReply, RPC, rpcErrorResponse } from './json-rpc.ts';

/** Where a stateless client names itself on each request (SEP-2575); initialize is not repeated. */
const CLIENT_INFO_META = 'io.modelcontextprotocol/clientInfo';

type Id = string | number;
type Params = Record<string, unknown>;
interface RpcRequest {
  jsonrpc: '2.0';
  id?: Id;
  method: string;
  params?: Params;
}
interface Call {
  req: Request;
  k: Knowledge;
  pipeline: ActionPipeline;
}
type Outcome = { result: unknown } | { error: { code: number; message: string } };

function isRequest(value: unknown): value is RpcRequest {
  return (
    isObject(value) &&
    value['jsonrpc'] === '2.0' &&
    typeof value['method'] === 'string' &&
    (value['params'] === undefined || isObject(value['params'])) &&
    (value['id'] === undefined || typeof value['id'] === 'string' || Number.isInteger(value['id']))
  );
}

/** A client's answer to a server request: this server sends none, so they are ignored. */
const isResponse = (value: unknown): boolean =>
  isObject(value) && value['jsonrpc'] === '2.0' && ('result' in value || 'error' in value) && 'id' in value;

const invalidParams = (message: string): Outcome => ({ error: { code: RPC.invalidParams, message } });

const METHODS: Record<string, (call: Call, params: Params) => Outcome | Promise<Outcome>> = {
  initialize: ({ k }, params) => ({
    result: {
      protocolVersion:
        PROTOCOL_VERSIONS.find((version) => version === params['protocolVersion']) ?? PROTOCOL_VERSIONS[0],
      capabilities: { tools: { listChanged: false } },
      serverInfo: mcpServerInfo(k),
      instructions: mcpInstructions(k),
    },
  }),
  ping: () => ({ result: {} }),
  'tools/list': ({ k }) => ({ result: { tools: mcpTools(k) } }),
  'tools/call': callTool,
};

async function callTool({ req, k, pipeline }: Call, params: Params): Promise<Outcome> {
  const name = params['name'];
  const action = typeof name === 'string' ? actionOfTool(name) : undefined;
  if (action === undefined) return invalidParams(`Unknown tool: ${String(name)}`);
  const given = params['arguments'] ?? {};
  if (!isObject(given)) return invalidParams('arguments must be an object.');
  const { [IDEMPOTENCY_KEY_ARGUMENT]: key, ...args } = given;
  const meta = isObject(params['_meta']) ? params['_meta'] : {};
  const client = implementationName(meta[CLIENT_INFO_META]) ?? userAgentProduct(req.headers.get('user-agent'));
  let reply: Reply;
  if (action === 'submit' && key !== undefined && typeof key !== 'string') {
    reply = problem('invalid-idempotency-key', `The ${IDEMPOTENCY_KEY_ARGUMENT} argument must be a string.`);
  } else {
    try {
      reply = await pipeline.run({
        // Other actions take no key: sent to them, it is a field their schema does not allow.
        body: { ...(action === 'submit' ? args : given), action },
        idempotencyKey: action === 'submit' && typeof key === 'string' ? key : null,
        source: { channel: 'mcp', client },
      });
    } catch (error) {
      logEvent('unexpected_error', { name: errorName(error), channel: 'mcp' });
      reply = internalError();
    }
  }
  return { result: toolResult(withProblemBase(reply, k.urls.agents)) };
}

function toolResult(reply: Reply) {
  const text = (value: unknown) => [{ type: 'text' as const, text: JSON.stringify(value) }];
  if (reply.status < 300) return { content: text(reply.body), structuredContent: reply.body };
  // The HTTP API's Retry-After (409, 429) travels in the problem itself.
  const retryAfter = Number(reply.headers?.['Retry-After'] ?? reply.headers?.['retry-after']);
  const details = {
    ...(reply.body as Record<string, unknown>),
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retry_after_seconds: retryAfter } : {}),
  };
  return { isError: true, content: text(details) };
}

/** Notifications and responses get 202 with no body; a batch (protocol 2025-03-26) is answered as one. */
export async function answer(
  req: Request,
  message: unknown,
  k: Knowledge,
  pipeline: ActionPipeline,
): Promise<Response> {
  const version = req.headers.get('mcp-protocol-version');
  const messages = Array.isArray(message) ? message : [message];
  const initializing = messages.some((m) => isObject(m) && m['method'] === 'initialize');
  if (!initializing && version !== null && !PROTOCOL_VERSIONS.some((known) => known === version)) {
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
  const replies: object[] = [];
  // One after another: two submits in one batch must not race for the same key.
  for (const { id, method, params } of requests) {
    const outcome = Object.hasOwn(METHODS, method)
      ? await METHODS[method]!({ req, k, pipeline }, params ?? {})
      : { error: { code: RPC.methodNotFound, message: `Method not found: ${method}` } };
    replies.push({ jsonrpc: '2.0', id, ...outcome });
  }
  return jsonReply(200, Array.isArray(message) ? replies : replies[0]);
}
