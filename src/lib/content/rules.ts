/** The content rules of the published interface (spec part 1), over any text the site or function publishes. */
import type { SiteData } from './entry-schema.ts';
import { oncePer } from '../memo.ts';
import { fundingPromises } from './funding-rule.ts';

/** The partner and its cloud provider, as content/site.md names them. */
export type Identity = Pick<SiteData, 'name' | 'cloud_provider' | 'cloud_provider_full_name'>;

/** How an editor fixes a violation of each rule, in one sentence. */
export const RULE_HELP = {
  'partner-is-not-the-provider':
    'describe the partner as an independent consulting and delivery partner, never as the cloud provider',
  'no-promised-funding':
    'say it as a possibility ("may qualify", "if AWS approves") or as the cloud provider\'s decision ("AWS decides"); docs/editing.md, "Funding, credits and approval", shows how',
  'launches-figure': 'render the launches figure exactly as "50+ customer launches" (not a count of companies)',
};

/** What each rule expects of a passage, as a problem's "expected" line. */
export const RULE_EXPECTED = {
  'partner-is-not-the-provider': 'the partner described as an independent consulting and delivery partner',
  'no-promised-funding':
    'funding, credits, program approval and amounts framed as a possibility or as the cloud provider’s decision',
  'launches-figure': 'the launches figure as "50+ customer launches"',
} satisfies Record<keyof typeof RULE_HELP, string>;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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

/** The sentence around a match, cut at whole words to at most `max` characters, with … where it was cut. */
export function passage(text: string, index: number, length: number, max = 160): string {
  const start = Math.max(text.slice(0, index).search(/[^.!?;\n]*$/), 0);
  const endAt = text.slice(index + length).search(/[.!?;\n]/);
  const end = endAt === -1 ? text.length : index + length + endAt + 1;
  let from = start;
  let to = end;
  if (to - from > max) {
    // Keep the match, and as much of its context either side as fits, at word boundaries.
    const room = Math.max(0, max - length);
    from = Math.max(start, index - Math.floor(room / 2));
    to = Math.min(end, index + length + Math.ceil(room / 2));
    // Inward to whole words: the match stays, a cut word goes.
    while (from > start && from < index && /\S/.test(text[from - 1]!)) from++;
    while (to < end && to > index + length && /\S/.test(text[to]!)) to--;
  }
  const cut = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > start ? '…' : ''}${cut}${to < end ? '…' : ''}`;
}

/** A broken rule: which, the passage (its sentence), and where its match is in the checked text. */
export interface Violation {
  rule: keyof typeof RULE_HELP;
  text: string;
  index: number;
  length: number;
}

export function findViolations(text: string, identity: Identity): Violation[] {
  const found: Violation[] = [];
  const add = (rule: Violation['rule'], index: number, length: number) =>
    found.push({ rule, text: passage(text, index, length), index, length });
  // matchAll works on a copy of each global pattern, so sharing the compiled ones is safe.
  for (const pattern of providerPatterns(identity)) {
    for (const m of text.matchAll(pattern)) {
      add('partner-is-not-the-provider', m.index, m[0].length);
    }
  }
  for (const m of fundingPromises(text, identity)) add('no-promised-funding', m.index, m.length);
  for (const m of text.matchAll(LAUNCH_FIGURE)) {
    if (m[0] === CANONICAL_LAUNCHES) continue;
    add('launches-figure', m.index, m[0].length);
  }
  for (const m of text.matchAll(COMPANY_COUNT)) {
    add('launches-figure', m.index, m[0].length);
  }
  return found;
}
