/** Facts written once in content/site.md, used in any frontmatter text or body as placeholders. */
import type { SiteData } from './entry-schema.ts';
import { nearest } from '../../text/nearest.ts';

const PLACEHOLDERS = {
  partner: (site: SiteData) => site.name,
  provider: (site: SiteData) => site.cloud_provider,
  provider_full_name: (site: SiteData) => site.cloud_provider_full_name,
  email: (site: SiteData) => site.email,
} as const;

const NAMES = Object.keys(PLACEHOLDERS) as (keyof typeof PLACEHOLDERS)[];

/** Replaces every known placeholder; a misspelt one is left and passed to `misspelt` with a suggestion. */
export function expandPlaceholders(
  text: string,
  site: SiteData,
  misspelt?: (written: string, suggestion: string) => void,
): string {
  return text.replace(/\{([a-z][a-z_]*)\}/g, (whole, name: string) => {
    if (name in PLACEHOLDERS) return PLACEHOLDERS[name as keyof typeof PLACEHOLDERS](site);
    const suggestion = nearest(name, NAMES);
    if (suggestion) misspelt?.(whole, `{${suggestion}}`);
    return whole;
  });
}
