/**
 * `dist/_headers` (Netlify's headers file, also honoured by `netlify serve`): the rules that depend
 * on content; fixed rules stay in netlify.toml. Each page's RFC 8288 `Link` header points to its
 * markdown twin, the llms.txt that describes it, and what its <head> links to; each twin's points
 * back to its page as canonical and to the llms.txt.
 */
import type { SiteModel } from '../content/model.ts';
import { pageDocuments } from '../pages/documents.ts';
import { absolute } from '../pages/urls.ts';
import { DOCUMENT_PATHS, PAGE_PATHS, twinPath } from '../../contract/paths.ts';

type LinkValue = { href: string; rel: string; type?: string };

const formatLink = ({ href, rel, type }: LinkValue) => `<${href}>; rel="${rel}"${type ? `; type="${type}"` : ''}`;

/** Sent by `/` and by a HEAD (or GET) of the catalog itself (RFC 9727 section 3). */
const API_CATALOG = { href: absolute(DOCUMENT_PATHS.apiCatalog), rel: 'api-catalog', type: 'application/linkset+json' };

/**
 * A page's links for agents: on the home page where the APIs are catalogued, described and
 * documented; on every page the AI catalog (ARD), root-relative so that on a deploy preview or
 * `npm start` it names that host's catalog, not production's.
 */
export function headLinks(path: string): LinkValue[] {
  return [
    ...(path === '/'
      ? [
          API_CATALOG,
          { href: absolute(DOCUMENT_PATHS.openapi), rel: 'service-desc', type: 'application/openapi+json' },
          { href: absolute(PAGE_PATHS.agents), rel: 'service-doc', type: 'text/html' },
        ]
      : []),
    { href: DOCUMENT_PATHS.aiCatalog, rel: 'ai-catalog', type: 'application/ai-catalog+json' },
  ];
}

const rule = (path: string, name: string, value: string) => `${path}\n  ${name}: ${value}`;

/** `registryAuth`: the build serves /.well-known/mcp-registry-auth (a file without an extension, typed here). */
export function headersFile(model: SiteModel, { registryAuth = false }: { registryAuth?: boolean } = {}): string {
  const signals = model.site.data.content_signals;
  const yn = (v: 'yes' | 'no') => (v === 'yes' ? 'y' : 'n');
  return (
    [
      '# Generated at build from content/ (src/lib/agents/headers-file.ts); do not edit dist/_headers.',
      // The aipref preference on every response, beside robots.txt's Content-Signal; aipref has no ai-input.
      rule('/*', 'Content-Usage', `train-ai=${yn(signals.ai_train)}, search=${yn(signals.search)}`),
      ...pageDocuments(model).flatMap((doc) => {
        const links = [
          { href: absolute(twinPath(doc.path)), rel: 'alternate', type: 'text/markdown' },
          { href: absolute(DOCUMENT_PATHS.llmsTxt), rel: 'describedby', type: 'text/plain' },
          ...headLinks(doc.path),
        ];
        // Netlify matches the requested path (`/services`), `netlify serve` the file it resolved (`/services.html`).
        const pages = (doc.path === '/' ? ['/'] : [doc.path, `${doc.path}.html`]).map((pattern) =>
          rule(pattern, 'Link', links.map(formatLink).join(', ')),
        );
        // The twin names the page it is the markdown of (RFC 6596) and the llms.txt that describes it.
        const twin = [
          { href: absolute(doc.path), rel: 'canonical', type: 'text/html' },
          { href: absolute(DOCUMENT_PATHS.llmsTxt), rel: 'describedby', type: 'text/plain' },
        ];
        return [...pages, rule(twinPath(doc.path), 'Link', twin.map(formatLink).join(', '))];
      }),
      rule(`${DOCUMENT_PATHS.apiCatalog}*`, 'Link', formatLink(API_CATALOG)),
      ...(registryAuth ? [rule(DOCUMENT_PATHS.mcpRegistryAuth, 'Content-Type', 'text/plain; charset=utf-8')] : []),
    ].join('\n\n') + '\n'
  );
}
