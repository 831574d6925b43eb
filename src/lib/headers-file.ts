/**
 * `dist/_headers` (Netlify's headers file, also honoured by `netlify serve`): the rules that
 * depend on content, so they are computed at build; fixed rules stay in netlify.toml.
 */
import type { SiteModel } from './content.ts';
import type { PageDocument } from './documents.ts';
import { apiCatalogLink, formatLink, linksOf, AGENT_DOCUMENT_PATHS } from './link-headers.ts';
import { contentUsage } from './robots.ts';

function rule(path: string, headers: [string, string][]): string {
  return [path, ...headers.map(([name, value]) => `  ${name}: ${value}`)].join('\n');
}

export function headersFile(model: SiteModel, docs: PageDocument[]): string {
  return [
    '# Generated at build from content/ (src/lib/headers-file.ts); do not edit dist/_headers.',
    // The aipref preference on every response, beside the robots.txt line.
    rule('/*', [['Content-Usage', contentUsage(model.site.data.content_signals)]]),
    ...docs.map((doc) => rule(doc.path, [['Link', linksOf(doc.path).map(formatLink).join(', ')]])),
    // RFC 9727 section 3: a HEAD of the catalog tells a client what it is.
    rule(`${AGENT_DOCUMENT_PATHS.apiCatalog}*`, [['Link', formatLink(apiCatalogLink())]]),
  ].join('\n\n') + '\n';
}
