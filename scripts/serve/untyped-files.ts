/**
 * The Content-Type of a static file that no extension types, as Netlify sends it. netlify serve's
 * static server (@fastify/static) types a file by its extension and one without an extension as
 * application/octet-stream; its proxy (netlify-cli's utils/proxy.js) sets the `[[headers]]` and
 * `_headers` values and then writes the static server's own headers over them, so that type wins
 * over the rule's. Netlify serves the rule's Content-Type. `npm start`'s front server therefore
 * gives such a reply (GET or HEAD, 200 or 304, application/octet-stream) the Content-Type the
 * rules for its path name, read with the parser Netlify's build uses; every other reply is left
 * as netlify serve made it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { parseAllHeaders, type Header } from '@netlify/headers-parser';

/** What netlify serve's static server sends for a file whose name has no extension. */
export const UNTYPED = 'application/octet-stream';

type TypeFor = (path: string) => string | undefined;

/** The Content-Type the rules of netlify.toml and dist/_headers give a path; the last rule that names one wins, as in netlify-cli. */
export async function headerTypes(siteDir: string): Promise<TypeFor> {
  const { headers } = await parseAllHeaders({
    headersFiles: [join(siteDir, 'dist', '_headers')],
    netlifyConfigPath: join(siteDir, 'netlify.toml'),
    configHeaders: [],
    minimal: false,
  });
  const typed = (headers as Header[]).flatMap(({ forRegExp, values }) => {
    const type = Object.entries(values).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
    return type ? [{ forRegExp, type }] : [];
  });
  return (path) => typed.findLast((rule) => rule.forRegExp.test(path))?.type;
}

/** The reply's headers, with the rules' Content-Type when netlify serve sent a static file untyped. */
export function typedHeaders(
  request: { method?: string | undefined; url?: string | undefined },
  reply: { statusCode?: number | undefined; headers: IncomingHttpHeaders },
  typeFor: TypeFor,
): IncomingHttpHeaders {
  const fromFile = ['GET', 'HEAD'].includes(request.method ?? '') && [200, 304].includes(reply.statusCode ?? 0);
  if (!fromFile || reply.headers['content-type'] !== UNTYPED) return reply.headers;
  const type = typeFor(new URL(request.url ?? '/', 'http://localhost').pathname);
  return type ? { ...reply.headers, 'content-type': type } : reply.headers;
}
