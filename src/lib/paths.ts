/** Site paths of entries, used by pages, twins and feeds alike. */
export const caseStudyPath = (slug: string) => `/case-studies/${slug}`;
export const postPath = (slug: string) => `/blog/${slug}`;
