/** Site paths of entries, used by pages, twins and feeds alike. */
export const caseStudyPath = (slug: string) => `/case-studies/${slug}`;
export const postPath = (slug: string) => `/blog/${slug}`;

/** A tag as a URL segment: lower case, words joined by hyphens ("generative ai" → "generative-ai"). */
export const tagSlug = (tag: string) =>
  tag
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

/** Path of a blog tag's page. */
export const tagPath = (tag: string) => `/blog/tags/${tagSlug(tag)}`;
