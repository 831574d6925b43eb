/** Published path of the blog's RSS feed (linked from every page's head and footer). */
export const RSS_PATH = '/rss.xml';
