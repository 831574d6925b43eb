/**
 * What the MCP door refuses before the SDK is handed a message (what the SDK checks itself:
 * docs/api.md, "Known SDK behaviour").
 */
import { rpcError } from './json-rpc.ts';

/**
 * Mcp-Method and Mcp-Name (SEP-2243) against the body. The SDK checks them on 2026-07-28 requests
 * only; a 2025-era submit labelled `tools/list` would run, and anything routing on the headers would
 * see a read. Every era is refused alike, in the SDK's words.
 */
function headersContradict(req: Request, message: Record<string, unknown>): string | undefined {
  const [method, name] = [req.headers.get('mcp-method')?.trim(), req.headers.get('mcp-name')?.trim()];
  if (method !== undefined && method !== message['method'])
    return `the body names method ${String(message['method'])} but the Mcp-Method header names ${method}`;
  const tool =
    message['method'] === 'tools/call' ? (message['params'] as { name?: unknown } | undefined)?.name : undefined;
  if (name !== undefined && typeof tool === 'string' && name !== tool)
    return `the body carries params.name="${tool}" but the Mcp-Name header names "${name}"`;
  return undefined;
}

/**
 * What the SDK is not handed (what it checks itself: docs/api.md, "Known SDK behaviour"). A batch:
 * batching left MCP in 2025-06-18, and one batch would carry many submits past the rate limit,
 * which counts HTTP requests. Headers that contradict the body.
 */
export function messageRefusal(req: Request, message: unknown): Response | undefined {
  if (Array.isArray(message))
    return rpcError(400, -32600, 'Invalid Request: JSON-RPC batches are not supported; send one message per request.');
  if (typeof message !== 'object' || message === null) return undefined;
  const contradiction = headersContradict(req, message as Record<string, unknown>);
  if (contradiction === undefined) return undefined;
  const id = (message as { id?: unknown }).id;
  const text = `Bad Request: the request headers and body disagree: ${contradiction}`;
  return rpcError(400, -32020, text, typeof id === 'string' || typeof id === 'number' ? id : null);
}
