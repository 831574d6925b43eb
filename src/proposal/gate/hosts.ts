/**
 * The hosts the function answers on, for both doors, against DNS rebinding: a page on evil.example
 * that resolves its own name to this server sends `Host: evil.example` and `Origin:
 * http://evil.example`, so comparing the Origin with the request's own host proves nothing. Both
 * headers are checked against one list fixed by the deployment instead, by the rules of the MCP
 * SDK's validateHostHeader and validateOriginHeader (port-agnostic hostnames; a missing Origin
 * passes, an unparsable one, `null` included, does not; tests/unit/gate-hosts.test.ts runs both).
 * The SDK's own helpers are not called: they ship in its bundle, which the API door never loads.
 */

/** Loopback names of a local run (`npm start`, `npm run dev`, the tests), the SDK's localhostAllowedHostnames. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Netlify's own addresses of a deploy (docs: "Build environment variables"): URL (the site's main
 * address), DEPLOY_URL (this deploy's unique address) and DEPLOY_PRIME_URL (its branch or preview
 * address). Read at invocation time, where Netlify sets them for functions too.
 */
const DEPLOY_ENV = ['URL', 'DEPLOY_URL', 'DEPLOY_PRIME_URL'] as const;

const hostnameOf = (url: string): string | undefined => {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
};

/** The canonical host (from the site URL the build used), the deploy's hosts and loopback. */
export function allowedHosts(canonicalUrl: string, env: (name: string) => string | undefined): ReadonlySet<string> {
  const hosts = [canonicalUrl, ...DEPLOY_ENV.map(env)].map((url) => (url ? hostnameOf(url) : undefined));
  return new Set([...LOOPBACK, ...hosts.filter((h): h is string => h !== undefined)]);
}

/** Which header names a host the function does not answer on, if either does. */
export function foreignHost(req: Request, allowed: ReadonlySet<string>): 'Host' | 'Origin' | undefined {
  // A Request built in-process (tests) has no Host header; the platform builds req.url from Host.
  const host = hostnameOf(`http://${req.headers.get('host') ?? new URL(req.url).host}`);
  if (host === undefined || !allowed.has(host)) return 'Host';
  const origin = req.headers.get('origin');
  if (origin === null || origin === '') return undefined;
  const originHost = hostnameOf(origin);
  return originHost !== undefined && allowed.has(originHost) ? undefined : 'Origin';
}
