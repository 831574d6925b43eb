/**
 * A small in-browser check for likely secrets, so people see the problem at the field before
 * anything leaves the page. It is advisory: the server's guard decides what is refused. Labels
 * and the card-number rules are the server's own, so both speak alike.
 */
import { hasIssuerPrefix, luhnValid } from '../../proposal/sensitive-data/identifiers.ts';
import { SENSITIVE_KIND_LABELS as LABELS } from '../../proposal/sensitive-data/kinds.ts';

const PATTERNS: readonly [RegExp, string][] = [
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, LABELS['cloud-access-key']],
  [/-----BEGIN [A-Z ]*PRIVATE KEY/, LABELS['private-key']],
  [/\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]+/, LABELS.jwt],
  [/\b(?:password|passwd|pwd|secret|api[_-]?key|token)\s*=\s*\S{3,}/i, LABELS.password],
  [/\b[a-z][\w+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i, LABELS['url-credentials']],
];

/** What the text seems to contain ("a cloud access key"), or undefined when nothing was found. */
export function findSecret(text: string): string | undefined {
  for (const [pattern, label] of PATTERNS) if (pattern.test(text)) return label;
  for (const match of text.matchAll(/\b\d(?:[ -]?\d){12,18}\b/g)) {
    const digits = match[0].replace(/\D/g, '');
    if (hasIssuerPrefix(digits) && luhnValid(digits)) return LABELS['payment-card'];
  }
  return undefined;
}
