/**
 * POST /mcp, the HTTP edge: ./protocol.ts is loaded only when an MCP message arrives, so requests
 * to the proposal API never pay for loading it.
 */
import type { Knowledge } from '../../contract/knowledge.ts';
import { MAX_BODY_BYTES } from '../../contract/fields.ts';
import { readBody } from '../read-body.ts';
import type { ActionPipeline, InvocationContext } from '../pipeline.ts';
import { RPC, rpcErrorResponse } from './json-rpc.ts';

/** A JSON-RPC envelope around the largest request the contract accepts. */
const MAX_MCP_BODY_BYTES = MAX_BODY_BYTES + 4 * 1024;
/** GET (an event stream) and DELETE (a session) get 405. */
const ALLOW = { allow: 'POST, OPTIONS' };

export function createMcpHandler(k: Knowledge, pipeline: ActionPipeline) {
  let protocol: Promise<typeof import('./protocol.ts')> | undefined;

  return async function handleMcp(req: Request, context?: InvocationContext): Promise<Response> {
    // The transport's rule against DNS rebinding and cross-site calls; clients outside a browser send no Origin.
    const origin = req.headers.get('origin');
    if (origin !== null && origin !== new URL(req.url).origin && origin !== new URL(k.urls.home).origin) {
      return rpcErrorResponse(403, RPC.serverError, 'Forbidden: this Origin may not use the MCP endpoint.');
    }
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: ALLOW });
    if (req.method !== 'POST') {
      return rpcErrorResponse(
        405,
        RPC.serverError,
        'Method not allowed: POST JSON-RPC messages; this stateless server offers no event stream and no session.',
        ALLOW,
      );
    }
    if (!/^application\/json\s*(;|$)/i.test(req.headers.get('content-type') ?? '')) {
      return rpcErrorResponse(415, RPC.serverError, 'Unsupported Media Type: Content-Type must be application/json');
    }
    // No Accept is any; text/event-stream is never sent here.
    const accept = req.headers.get('accept');
    if (accept !== null && !/(^|,)\s*(application\/json|application\/\*|\*\/\*)\s*(;|,|$)/i.test(accept)) {
      return rpcErrorResponse(406, RPC.serverError, 'Not Acceptable: this server answers application/json');
    }
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
    pipeline.scheduleSweep(context);
    const { answer } = await (protocol ??= import('./protocol.ts'));
    return answer(req, message, k, pipeline);
  };
}
