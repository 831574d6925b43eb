/** How pages and replies describe the partner, from `type` in content/site.md. */
import type { Knowledge } from './knowledge.ts';

/** "Cloud partner" → "a cloud partner". */
export function partnerPhrase(type: string): string {
  const lower = type.trim().toLowerCase();
  return `${/^[aeiou]/.test(lower) ? 'an' : 'a'} ${lower}`;
}

/** The names a sentence about the partner needs; `described_as` is partnerPhrase of its type. */
export type PartnerNames = Pick<Knowledge['partner'], 'name' | 'described_as' | 'cloud_provider_full_name'>;

/** "Kestrel Cloud, an independent … partner (not Amazon Web Services)": the partner named in passing. */
export const partnerWithAside = (p: PartnerNames): string =>
  `${p.name}, ${p.described_as} (not ${p.cloud_provider_full_name})`;

/** "Kestrel Cloud is an independent … partner, not Amazon Web Services": the partner introduced. */
export const partnerStatement = (p: PartnerNames): string =>
  `${p.name} is ${p.described_as}, not ${p.cloud_provider_full_name}`;
