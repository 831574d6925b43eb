/** JSON-RPC 2.0 as the MCP endpoint writes it: error codes, and replies that are never cached. */

export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  /** The transport's own refusals (Origin, method, media type, header), as the SDK reports them. */
  serverError: -32000,
} as const;

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** A JSON-RPC error without an id: the reply to a message the server would not read. */
export function rpcErrorResponse(
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return jsonReply(status, { jsonrpc: '2.0', id: null, error: { code, message } }, headers);
}

/** What /mcp allows: no GET (no event stream), no DELETE (no session). */
export const MCP_ALLOW = 'POST, OPTIONS';

/** The 405 of GET and DELETE, from the function and from the CDN's file (netlify.toml) alike. */
export const METHOD_NOT_ALLOWED = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: RPC.serverError,
    message: 'Method not allowed: POST JSON-RPC messages; this stateless server offers no event stream and no session.',
  },
} as const;
