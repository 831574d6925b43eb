/** Kinds of sensitive data the proposal intake refuses, and the words used to name them. */

export const SENSITIVE_KINDS = [
  'private-key',
  'cloud-access-key',
  'api-token',
  'jwt',
  'connection-string',
  'url-credentials',
  'password',
  'secret',
  'payment-card',
  'bank-account',
  'national-id',
] as const;
export type SensitiveKind = (typeof SENSITIVE_KINDS)[number];

/** Human words for each kind; safe to show to the sender (they never contain the value). */
export const SENSITIVE_KIND_LABELS: Readonly<Record<SensitiveKind, string>> = {
  'private-key': 'a private key',
  'cloud-access-key': 'a cloud access key',
  'api-token': 'an API token',
  jwt: 'a JSON Web Token',
  'connection-string': 'a connection string with a password',
  'url-credentials': 'a URL with embedded credentials',
  password: 'a password',
  secret: 'a secret',
  'payment-card': 'a payment card number',
  'bank-account': 'a bank account number (IBAN)',
  'national-id': 'a national ID number',
};

/**
 * One match inside one text: the kind and the half-open range [start, end) it covers. Ranges are
 * only used to let a specific match win over a generic one on the same characters; they are never
 * used to cut the value out.
 */
export interface Hit {
  kind: SensitiveKind;
  start: number;
  end: number;
  /**
   * A generic match (a `password=...`-style assignment, a bearer header) that yields to a specific
   * match overlapping it, so `aws_secret_access_key = ...` reports a cloud access key, not also a
   * secret, and `token: eyJ...` reports a JWT.
   */
  generic?: true;
}

const NO_MATCHES: readonly RegExpExecArray[] = [];

/**
 * Every match of a global regular expression, resetting it first (regexes are shared). Most texts
 * match none of the many patterns, so that case allocates nothing: per-request garbage is what
 * makes the slow tail of a request.
 */
export function allMatches(pattern: RegExp, text: string): readonly RegExpExecArray[] {
  pattern.lastIndex = 0;
  let match = pattern.exec(text);
  if (match === null) return NO_MATCHES;
  const matches: RegExpExecArray[] = [];
  for (; match !== null; match = pattern.exec(text)) {
    matches.push(match);
    if (match[0] === '') pattern.lastIndex += 1;
  }
  return matches;
}
