/**
 * Every reply of the function, whichever door and whoever built it (a door or the MCP SDK), is
 * never stored by a cache and never sniffed: production applies no netlify.toml header to a
 * function's reply. An HTML reply's own Content-Security-Policy stays as it is.
 */
export function hardened(reply: Response): Response {
  const headers = new Headers(reply.headers);
  headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  return new Response(reply.body, { status: reply.status, statusText: reply.statusText, headers });
}
