/** JSON-RPC 2.0 as the MCP door writes its own refusals, with the SDK's codes (-32000: the transport's). */
export const rpcError = (status: number, code: number, message: string, id: string | number | null = null) =>
  Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status });

/** What /mcp allows: no GET (no event stream), no DELETE (no session). */
export const MCP_ALLOW = 'POST, OPTIONS';

/** The 405 of GET and DELETE, from the function and from the CDN's file (netlify.toml) alike. */
export const METHOD_NOT_ALLOWED = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32000,
    message: 'Method not allowed: POST JSON-RPC messages; this stateless server offers no event stream and no session.',
  },
} as const;
