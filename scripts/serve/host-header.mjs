// @ts-check
/**
 * The Host check of `npm start`'s front server (scripts/serve.ts) and of netlify-cli's own listeners
 * (./inner-body-guard.mjs). netlify-cli and the local Blobs server build a URL from the Host and the
 * request target without catching: `Host: localhost:99999` made netlify-cli throw and exit, and the
 * Blobs server answered 500 with a stack trace naming the checkout's absolute paths. A request whose
 * Host is not a host name or address with an optional port (RFC 9110 §7.2: no user part), or whose
 * target does not parse with it, is answered 400 before any of them sees it.
 */

/** A reg-name (letters, digits, `-`, `.`, `_`), an IPv4 address or a bracketed IPv6 one, then `:port`. */
const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{0,5}))?$/;

/**
 * True when `host` and `target` make a URL the way netlify-cli makes one. A missing Host (HTTP/1.0)
 * is left to the servers behind, which fall back to their own address.
 * @param {string | undefined} host the Host header
 * @param {string | undefined} target the request target (`req.url`)
 */
export function parseableHost(host, target) {
  if (host === undefined) return true;
  const match = HOST.exec(host);
  if (match === null || Number(match[1] ?? 0) > 65_535) return false;
  try {
    new URL(target ?? '/', `http://${host}`);
    return true;
  } catch {
    return false;
  }
}

/** The reply's body: short, plain, and naming nothing of the machine. */
export const UNPARSEABLE_HOST_BODY =
  'Bad Request: the Host header must be a host name or address, with an optional port.\n';

/**
 * Answers 400 and closes the connection (a body may still be arriving).
 * @param {import('node:http').ServerResponse} res
 */
export function refuseUnparseableHost(res) {
  res.writeHead(400, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(UNPARSEABLE_HOST_BODY),
    connection: 'close',
  });
  res.end(UNPARSEABLE_HOST_BODY);
}
