/**
 * POST /mcp, the HTTP edge: the checks that need no MCP code (Host and Origin, method, media type,
 * size, JSON, no batches), then the SDK server of ./server.ts, loaded with the SDK only when an
 * MCP message arrives, so requests to the proposal API never pay for loading it.
 */
import type { Knowledge } from '../../contract/knowledge.ts';
import { readEnv } from '../../contract/http.ts';
import { MAX_BODY_BYTES } from '../../contract/fields.ts';
import { readBody } from '../read-body.ts';
import type { ActionPipeline, InvocationContext } from '../pipeline.ts';
import { errorName, logEvent } from '../submit/log.ts';
import { jsonReply, MCP_ALLOW, METHOD_NOT_ALLOWED, RPC, rpcErrorResponse } from './json-rpc.ts';
import { allowedHosts, hostRefusal } from './hosts.ts';
import type { McpSdk } from './server.ts';

/** A JSON-RPC envelope around the largest request the contract accepts. */
const MAX_MCP_BODY_BYTES = MAX_BODY_BYTES + 4 * 1024;
/** GET (an event stream) and DELETE (a session) get 405. */
const ALLOW = { allow: MCP_ALLOW };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What the edge refuses before the SDK reads a message. A batch (an array): batching left MCP in
 * 2025-06-18 and the 2026-07-28 revision forbids it, and one batch would carry many submits past
 * the function's rate limit, which counts HTTP requests. A tools/call whose name is not a string:
 * the SDK would look it up as an object key and could fail past its error mapping.
 */
function messageRefusal(message: unknown): Response | undefined {
  if (Array.isArray(message)) {
    return rpcErrorResponse(
      400,
      RPC.invalidRequest,
      'Invalid Request: JSON-RPC batches are not supported; send one message per request.',
    );
  }
  if (isObject(message) && message['method'] === 'tools/call' && 'id' in message) {
    const params = message['params'];
    if (!isObject(params) || typeof params['name'] !== 'string') {
      const id = typeof message['id'] === 'string' || typeof message['id'] === 'number' ? message['id'] : null;
      return jsonReply(200, {
        jsonrpc: '2.0',
        id,
        error: { code: RPC.invalidParams, message: 'Invalid params: name must be a string naming a tool.' },
      });
    }
  }
  return undefined;
}

/** `loadSdk`: imports the bundled SDK (./sdk.ts), called once, when the first MCP message arrives. */
export function createMcpHandler(k: Knowledge, pipeline: ActionPipeline, loadSdk: () => Promise<McpSdk>) {
  let server: Promise<{ fetch: (req: Request, options: { parsedBody: unknown }) => Promise<Response> }> | undefined;
  const load = () =>
    (server ??= Promise.all([loadSdk(), import('./server.ts')]).then(
      ([sdk, { createMcpServer }]) => createMcpServer(sdk, k, pipeline, MAX_MCP_BODY_BYTES),
      (error: unknown) => {
        // Not kept: the next MCP message tries to load again.
        server = undefined;
        throw error;
      },
    ));

  return async function handleMcp(req: Request, context?: InvocationContext): Promise<Response> {
    // Against DNS rebinding and cross-site calls: Host and Origin name a host this site is served on.
    const refusal = hostRefusal(req, allowedHosts(k.urls.home, readEnv));
    if (refusal !== undefined) return rpcErrorResponse(403, RPC.serverError, `Forbidden: ${refusal}.`);
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: ALLOW });
    if (req.method !== 'POST') {
      return jsonReply(405, METHOD_NOT_ALLOWED, ALLOW);
    }
    if (!/^application\/json\s*(;|$)/i.test(req.headers.get('content-type') ?? '')) {
      return rpcErrorResponse(415, RPC.serverError, 'Unsupported Media Type: Content-Type must be application/json');
    }
    // Read once here; the SDK gets the parsed message and never reads the body again.
    const body = await readBody(req, MAX_MCP_BODY_BYTES);
    if (!body.ok) {
      return body.reason === 'too-large'
        ? rpcErrorResponse(413, RPC.serverError, `Payload too large: at most ${MAX_MCP_BODY_BYTES} bytes.`)
        : rpcErrorResponse(400, RPC.parseError, 'Parse error: the body could not be read.');
    }
    let message: unknown;
    try {
      message = JSON.parse(body.text);
    } catch {
      return rpcErrorResponse(400, RPC.parseError, 'Parse error: Invalid JSON');
    }
    const refused = messageRefusal(message);
    if (refused) return refused;
    pipeline.scheduleSweep(context);
    try {
      return await (await load()).fetch(req, { parsedBody: message });
    } catch (error) {
      // Never a stack trace or a file path: the class name goes to the log, a fixed text to the client.
      logEvent('unexpected_error', { name: errorName(error), channel: 'mcp' });
      return rpcErrorResponse(500, -32603, 'Internal error');
    }
  };
}
