/** Absolute URLs from the canonical base (astro.config `site`): agent documents never carry relative links. */

/** The canonical base URL of the site. */
export const base = new URL(import.meta.env.SITE);

/** Published path of the capabilities document's JSON Schema. */
export const CAPABILITIES_SCHEMA_PATH = '/schemas/capabilities.schema.json';

/** Absolute URL of a site path, e.g. `absolute('/services')`. */
export function absolute(path: string): string {
  return new URL(path, base).toString();
}
