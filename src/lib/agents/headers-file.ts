/**
 * `dist/_headers` (Netlify's headers file, also honoured by `netlify serve`): the rules that
 * depend on content, so they are computed at build; fixed rules stay in netlify.toml.
 */
import type { SiteModel } from '../content/content.ts';
import type { PageDocument } from '../pages/page-document.ts';
import { apiCatalogLink, formatLink, linksOf } from './link-headers.ts';
import { contentUsage } from './robots.ts';
import { DOCUMENT_PATHS } from '../../contract/paths.ts';

function rule(path: string, headers: [string, string][]): string {
  return [path, ...headers.map(([name, value]) => `  ${name}: ${value}`)].join('\n');
}

/**
 * Netlify matches a rule against the requested path (`/services`); `netlify serve` matches it
 * against the file it resolved (`/services.html`). A rule for each keeps both in step.
 */
function pagePatterns(path: string): string[] {
  return path === '/' ? ['/'] : [path, `${path}.html`];
}

export function headersFile(model: SiteModel, docs: PageDocument[]): string {
  return (
    [
      '# Generated at build from content/ (src/lib/agents/headers-file.ts); do not edit dist/_headers.',
      // The aipref preference on every response, beside the robots.txt line.
      rule('/*', [['Content-Usage', contentUsage(model.site.data.content_signals)]]),
      ...docs.flatMap((doc) =>
        pagePatterns(doc.path).map((pattern) =>
          rule(pattern, [['Link', linksOf(doc.path).map(formatLink).join(', ')]]),
        ),
      ),
      // RFC 9727 section 3: a HEAD of the catalog tells a client what it is.
      rule(`${DOCUMENT_PATHS.apiCatalog}*`, [['Link', formatLink(apiCatalogLink())]]),
    ].join('\n\n') + '\n'
  );
}
