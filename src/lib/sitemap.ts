/** `/sitemap.xml` (sitemaps.org): every page with its canonical URL and the date it last changed. */
import type { SiteModel } from './content.ts';
import type { PageDocument } from './page-document.ts';
import { lastUpdated } from './page-dates.ts';
import { absolute } from './urls.ts';
import { escapeHtml as escapeXml } from '../schemas/escape-html.ts';

export function sitemapXml(model: SiteModel, docs: PageDocument[]): string {
  const urls = docs.map(
    (doc) =>
      `  <url>\n    <loc>${escapeXml(absolute(doc.path))}</loc>\n    <lastmod>${lastUpdated(doc, model)}</lastmod>\n  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}
