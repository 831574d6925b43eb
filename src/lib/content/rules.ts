/** The content rules of the published interface (spec part 1), over any text the site or function publishes. */
import type { SiteData } from './entry-schema.ts';
import { oncePer } from '../memo.ts';

/** The partner and its cloud provider, as content/site.md names them. */
export type Identity = Pick<SiteData, 'name' | 'cloud_provider' | 'cloud_provider_full_name'>;

/** How an editor fixes a violation of each rule, in one sentence. */
export const RULE_HELP = {
  'partner-is-not-the-provider':
    'describe the partner as an independent consulting and delivery partner, never as the cloud provider',
  'no-promised-funding': 'never promise funding, credits or approval: the cloud provider decides; write "may qualify"',
  'launches-figure': 'render the launches figure exactly as "50+ customer launches" (not a count of companies)',
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A negation shortly before a match turns a promise into its denial ("is not guaranteed"). */
const NEGATED = /\b(?:not|never|no|cannot|can't|won't|don't|doesn't|without|nor)\b[^.;:!?]{0,24}$/i;

const BENEFIT = '(?:funding|credits?|approval|approved|investment|MDF|eligibility|grants?)';
const PROMISE_PATTERNS = [
  new RegExp(`\\bguarantee[sd]?\\b[^.;:!?]{0,60}\\b${BENEFIT}`, 'gi'),
  new RegExp(`\\b${BENEFIT}\\b[^.;:!?]{0,40}\\bguaranteed\\b`, 'gi'),
  /\b(?:will|shall)\s+(?:definitely\s+|certainly\s+|automatically\s+)?(?:qualify|be\s+approved|be\s+eligible)\b/gi,
  new RegExp(
    `\\b(?:will|shall)\\s+(?:definitely\\s+|certainly\\s+|automatically\\s+)?(?:receive|get|obtain|be\\s+awarded|be\\s+granted|unlock|secure)\\b[^.;:!?]{0,40}\\b${BENEFIT}`,
    'gi',
  ),
  /\b(?:qualifies|qualified)\s+for\b/gi,
  /\bsure\s+to\s+(?:qualify|be\s+approved)\b/gi,
];

/** Compiled once per identity: every text is checked against the same few. */
const providerPatterns = oncePer((id: Identity): RegExp[] => {
  const provider = `(?:${escape(id.cloud_provider)}|${escape(id.cloud_provider_full_name)}|Amazon)`;
  const subject = `(?:we\\s+are|we're|${escape(id.name)}\\s+is|${escape(id.name)}\\s+are)`;
  // "we are AWS" but not "we are an AWS Advanced Tier partner" or "AWS-certified".
  const notPartnerPhrase = `(?![\\w-]*(?:[\\s-]+[\\w-]+){0,3}[\\s-]+(?:partner|customer|certified|consultants?))`;
  return [
    new RegExp(
      `\\b${subject}\\s+(?:(?:part|a\\s+division|a\\s+unit|a\\s+team|a\\s+subsidiary)\\s+of\\s+)?(?:the\\s+)?${provider}\\b(?!['’]s\\b)${notPartnerPhrase}`,
      'gi',
    ),
    new RegExp(`\\b(?:an?\\s+)?${provider}[\\s-]+(?:owned\\s+)?(?:company|subsidiary|division)\\b`, 'gi'),
    new RegExp(`\\bon\\s+behalf\\s+of\\s+${provider}\\b`, 'gi'),
  ];
});

const LAUNCH_FIGURE = /\b\d[\d,.]*\s*\+?\s*(?:(?:customer|client|product|successful)\s+)?launch(?:es|ed)?\b/gi;
const COMPANY_COUNT = /\b50\s*\+?\s*(?:customers|companies|clients|startups)\b/gi;
const CANONICAL_LAUNCHES = '50+ customer launches';

function passage(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 20);
  const end = Math.min(text.length, index + length + 20);
  return `${start > 0 ? '…' : ''}${text.slice(start, end).replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}

export function findViolations(text: string, identity: Identity) {
  const found: { rule: keyof typeof RULE_HELP; text: string }[] = [];
  // matchAll works on a copy of each global pattern, so sharing the compiled ones is safe.
  for (const pattern of providerPatterns(identity)) {
    for (const m of text.matchAll(pattern)) {
      found.push({ rule: 'partner-is-not-the-provider', text: passage(text, m.index, m[0].length) });
    }
  }
  for (const pattern of PROMISE_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const before = text.slice(Math.max(0, m.index - 40), m.index);
      if (NEGATED.test(before) || /\bmay\s+$|\bmight\s+$|\bcould\s+$/i.test(before)) continue;
      found.push({ rule: 'no-promised-funding', text: passage(text, m.index, m[0].length) });
    }
  }
  for (const m of text.matchAll(LAUNCH_FIGURE)) {
    if (m[0] === CANONICAL_LAUNCHES) continue;
    found.push({ rule: 'launches-figure', text: passage(text, m.index, m[0].length) });
  }
  for (const m of text.matchAll(COMPANY_COUNT)) {
    found.push({ rule: 'launches-figure', text: passage(text, m.index, m[0].length) });
  }
  return found;
}
