/**
 * POST /mcp: the proposal actions over MCP's Streamable HTTP transport, stateless, with JSON
 * replies. This module guards the HTTP edge (Origin, method, body size) and loads the protocol
 * side (./protocol.ts, the official SDK) only when an MCP message arrives, so requests to the
 * proposal API never pay for loading it.
 */
import type { Knowledge } from '../knowledge.ts';
import { MAX_BODY_BYTES } from '../fields.ts';
import { readBody } from '../read-body.ts';
import type { ActionPipeline, InvocationContext } from '../pipeline.ts';
import { MCP_ALLOWED_METHODS } from './server-info.ts';

/** A JSON-RPC envelope around the largest request the contract accepts. */
export const MAX_MCP_BODY_BYTES = MAX_BODY_BYTES + 4 * 1024;

/** JSON-RPC error codes of the transport's own refusals (the SDK's, for the same cases). */
const SERVER_ERROR = -32000;
const PARSE_ERROR = -32700;

/** A JSON-RPC error without an id: the reply to a message the server would not read. */
function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/**
 * The transport's security rule: a browser's request from another site must not reach the
 * server (DNS rebinding, cross-site calls). Clients outside a browser send no Origin.
 */
export function originAllowed(origin: string | null, requestUrl: string, k: Knowledge): boolean {
  if (origin === null) return true;
  return origin === new URL(requestUrl).origin || origin === new URL(k.urls.home).origin;
}

export function createMcpHandler(k: Knowledge, pipeline: ActionPipeline) {
  let protocol: Promise<typeof import('./protocol.ts')> | undefined;

  return async function handleMcp(req: Request, context?: InvocationContext): Promise<Response> {
    if (!originAllowed(req.headers.get('origin'), req.url, k)) {
      return rpcError(403, SERVER_ERROR, 'Forbidden: this Origin may not use the MCP endpoint.');
    }
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: MCP_ALLOWED_METHODS } });
    if (req.method !== 'POST') {
      return rpcError(
        405,
        SERVER_ERROR,
        'Method not allowed: POST JSON-RPC messages; this stateless server offers no event stream and no session.',
        { allow: MCP_ALLOWED_METHODS },
      );
    }
    const body = await readBody(req, MAX_MCP_BODY_BYTES);
    if (!body.ok) {
      return body.reason === 'too-large'
        ? rpcError(413, SERVER_ERROR, `Payload too large: at most ${MAX_MCP_BODY_BYTES} bytes.`)
        : rpcError(400, PARSE_ERROR, 'Parse error: the body could not be read.');
    }
    let message: unknown;
    try {
      message = JSON.parse(body.text);
    } catch {
      return rpcError(400, PARSE_ERROR, 'Parse error: Invalid JSON');
    }
    pipeline.scheduleSweep(context);
    const { answer } = await (protocol ??= import('./protocol.ts'));
    return answer(req, message, k, pipeline);
  };
}
