/** Published path of the blog's RSS feed (linked from every page's head and footer). */
export const RSS_PATH = '/rss.xml';

/** Path of a blog tag's page; tags are lower-case words joined by hyphens. */
export const tagPath = (tag: string) => `/blog/tags/${tagSlug(tag)}`;

export const tagSlug = (tag: string) =>
  tag
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
