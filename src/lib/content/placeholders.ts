/**
 * Facts written once in content/site.md and used anywhere else through placeholders:
 * `{partner}`, `{provider}`, `{provider_full_name}` and `{email}` in any frontmatter text or body.
 * Renaming the partner in site.md then renames it everywhere.
 */
import type { SiteData } from './entry-schema.ts';
import { nearest } from '../../text/nearest.ts';

export const PLACEHOLDERS = {
  partner: (site: SiteData) => site.name,
  provider: (site: SiteData) => site.cloud_provider,
  provider_full_name: (site: SiteData) => site.cloud_provider_full_name,
  email: (site: SiteData) => site.email,
} as const;

const NAMES = Object.keys(PLACEHOLDERS) as (keyof typeof PLACEHOLDERS)[];
const PLACEHOLDER = /\{([a-z][a-z_]*)\}/g;
/** Fields of site.md that the placeholders stand for: they must be written out. */
export const PLACEHOLDER_SOURCES = ['name', 'cloud_provider', 'cloud_provider_full_name', 'email'] as const;

/** Replaces every known placeholder; returns the text and misspelt placeholders with a suggestion. */
export function expandPlaceholders(
  text: string,
  site: SiteData,
): { text: string; misspelt: { written: string; suggestion: string }[] } {
  const misspelt: { written: string; suggestion: string }[] = [];
  const expanded = text.replace(PLACEHOLDER, (whole, name: string) => {
    if (name in PLACEHOLDERS) return PLACEHOLDERS[name as keyof typeof PLACEHOLDERS](site);
    const suggestion = nearest(name, NAMES);
    if (suggestion) misspelt.push({ written: whole, suggestion: `{${suggestion}}` });
    return whole;
  });
  return { text: expanded, misspelt };
}
