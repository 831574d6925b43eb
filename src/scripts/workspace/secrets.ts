/**
 * A small in-browser check for likely secrets, so people see the problem at the field before
 * anything leaves the page. It is advisory: the server's guard decides what is refused.
 */
const PATTERNS: readonly [RegExp, string][] = [
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an access key ID'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY/, 'a private key'],
  [/\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]+/, 'a signed token (JWT)'],
  [/\b(?:password|passwd|pwd|secret|api[_-]?key|token)\s*=\s*\S{3,}/i, 'a password or key'],
  [/\b[a-z][\w+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i, 'a URL with a user name and password'],
];

/** Luhn checksum, so long numbers that cannot be card numbers (order ids, phones) pass. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let n = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
    sum += n;
  }
  return sum % 10 === 0;
}

/** What the text seems to contain ("an access key ID"), or undefined when nothing was found. */
export function findSecret(text: string): string | undefined {
  for (const [pattern, label] of PATTERNS) if (pattern.test(text)) return label;
  for (const match of text.matchAll(/\b\d(?:[ -]?\d){12,18}\b/g)) {
    const digits = match[0].replace(/\D/g, '');
    if (digits.length >= 13 && luhn(digits)) return 'a payment card number';
  }
  return undefined;
}
