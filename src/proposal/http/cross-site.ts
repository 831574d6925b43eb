/**
 * Any web page could otherwise submit through its visitors' browsers (a form-encoded POST needs no
 * preflight, and the JSON API answered every origin). A browser says where a request comes from in
 * fetch metadata (Sec-Fetch-Site) and Origin, which a page cannot forge; clients that are not
 * browsers (curl, agents, MCP clients) send neither, or their own, and are not web pages of
 * another site, so they pass.
 */
import { problem, type Reply } from '../../contract/http.ts';

/** Sec-Fetch-Site values of a request this site's own pages (or the person, typing) made. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/** The 403 for a browser POST made by another site's page; undefined for everything else. */
export function crossSiteRefusal(req: Request, canonicalHome: string): Reply | undefined {
  if (req.method !== 'POST') return undefined;
  const fetchSite = req.headers.get('sec-fetch-site')?.trim().toLowerCase();
  const origin = req.headers.get('origin');
  // The address the request was sent to, and the canonical one (a deploy may serve both).
  const own = new Set([new URL(req.url).origin, new URL(canonicalHome).origin]);
  const foreignSite = fetchSite !== undefined && !OWN_FETCH_SITES.has(fetchSite);
  // `null` is what a browser sends from an opaque origin (a sandboxed frame, a data: page).
  const foreignOrigin = origin !== null && !own.has(origin.trim());
  if (!foreignSite && !foreignOrigin) return undefined;
  return problem(
    'cross-site-request',
    'This POST came from a page of another site in a browser, and only the pages of this site may submit through a browser. Nothing was processed.',
  );
}
