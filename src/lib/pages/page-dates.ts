/** When a page last changed, from the content dates: feeds the twins' frontmatter, the sitemap and JSON-LD. */
import type { SiteModel } from '../content/content.ts';
import type { PageDocument } from './page-document.ts';
import { oncePer } from '../memo.ts';

const newest = (dates: string[]) => dates.reduce((a, b) => (b > a ? b : a));

/** The newest date of each listing section, worked out once per model: every archive page asks. */
const listingDates = oncePer((model: SiteModel) => {
  const reviewed = model.site.data.last_updated;
  return {
    blog: newest([reviewed, ...model.posts.map((p) => p.data.published)]),
    caseStudies: newest([reviewed, ...model.caseStudies.map((c) => c.data.published)]),
  };
});

/**
 * An entry's page changed when it was published; a listing when its newest entry was; every
 * other page when the site's facts were last reviewed (`last_updated` in content/site.md).
 */
export function lastUpdated(doc: PageDocument, model: SiteModel): string {
  if (doc.published) return doc.published;
  if (doc.section === 'Blog') return listingDates(model).blog;
  if (doc.section === 'Case studies') return listingDates(model).caseStudies;
  return model.site.data.last_updated;
}
