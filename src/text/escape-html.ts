/**
 * The one escaper for markup the project writes by hand: HTML text and attribute values (pages,
 * the function's reply pages) and XML (the sitemap). All five special characters, everywhere.
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
