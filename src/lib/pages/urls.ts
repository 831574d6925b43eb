/** Absolute URLs from the canonical base (astro.config `site`): agent documents never carry relative links. */

/** The canonical base URL of the site. */
export const base = new URL(import.meta.env.SITE);

/** Absolute URL of a site path, e.g. `absolute('/services')`. */
export function absolute(path: string): string {
  return new URL(path, base).toString();
}
