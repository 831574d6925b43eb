/** The longest `<title>` search results show in full. */
export const MAX_TITLE_LENGTH = 60;

/** A page's `<title>`: its own title, then the site's name when both fit; never the name twice. */
export function documentTitle(title: string, siteName: string): string {
  if (title.includes(siteName)) return title;
  const full = `${title} | ${siteName}`;
  return full.length <= MAX_TITLE_LENGTH ? full : title;
}
