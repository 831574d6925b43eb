/** When a page last changed, from the content dates: feeds the twins' frontmatter, the sitemap and JSON-LD. */
import type { SiteModel } from './content.ts';
import type { PageDocument } from './page-document.ts';

const newest = (dates: string[]) => dates.reduce((a, b) => (b > a ? b : a));

/**
 * An entry's page changed when it was published; a listing when its newest entry was; every
 * other page when the site's facts were last reviewed (`last_updated` in content/site.md).
 */
export function lastUpdated(doc: PageDocument, model: SiteModel): string {
  if (doc.published) return doc.published;
  const reviewed = model.site.data.last_updated;
  if (doc.section === 'Blog') return newest([reviewed, ...model.posts.map((p) => p.data.published)]);
  if (doc.section === 'Case studies') return newest([reviewed, ...model.caseStudies.map((c) => c.data.published)]);
  return reviewed;
}
