/** The one escaper for hand-written HTML text, attribute values and XML: all five special characters. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
