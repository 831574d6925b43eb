/** Entries per index page (/blog, /case-studies): keeps every index within the 14 KB first-flight budget as content grows. */
export const INDEX_PAGE_SIZE = 20;
