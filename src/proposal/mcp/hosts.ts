/**
 * The hosts /mcp answers on, against DNS rebinding: a page on evil.example that resolves its own
 * name to this server sends `Host: evil.example` and `Origin: http://evil.example`, so comparing
 * the Origin with the request's own host proves nothing. Both headers are checked against a list
 * fixed by the deployment instead.
 */

/** Loopback names of a local run (`npm start`, `npm run dev`, the tests). */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Netlify's own addresses of a deploy (docs: "Build environment variables"): URL (the site's main
 * address), DEPLOY_URL (this deploy's unique address) and DEPLOY_PRIME_URL (its branch or preview
 * address). Read at invocation time, where Netlify sets them for functions too.
 */
const DEPLOY_ENV = ['URL', 'DEPLOY_URL', 'DEPLOY_PRIME_URL'] as const;

const hostnameOf = (url: string | undefined): string | undefined => {
  if (!url) return undefined;
  try {
    return new URL(url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
};

/** The canonical host (from the site URL the build used), the deploy's hosts and loopback. */
export function allowedHosts(canonicalUrl: string, env: (name: string) => string | undefined): ReadonlySet<string> {
  const hosts = [canonicalUrl, ...DEPLOY_ENV.map(env)].map(hostnameOf);
  return new Set([...LOOPBACK, ...hosts.filter((h): h is string => h !== undefined)]);
}

/**
 * Why a request may not use the endpoint, or undefined when it may. `Host` must name an allowed
 * host (port-agnostic, as a proxy may change the port); an `Origin`, which only browsers send,
 * must too. The literal `null` origin (sandboxed frames, file: pages) is never allowed.
 */
export function hostRefusal(req: Request, allowed: ReadonlySet<string>): string | undefined {
  const { headers } = req;
  // A Request built in-process (tests) has no Host header; the platform builds req.url from Host.
  const host = hostnameOf(`http://${headers.get('host') ?? new URL(req.url).host}`);
  if (host === undefined || !allowed.has(host)) return 'this Host is not one this server answers on';
  const origin = headers.get('origin');
  if (origin === null || origin === '') return undefined;
  const originHost = hostnameOf(origin);
  return originHost !== undefined && allowed.has(originHost) ? undefined : 'this Origin may not use the MCP endpoint';
}
