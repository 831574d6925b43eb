/** Kinds of sensitive data the proposal intake refuses, with words safe to show (never the value). */
export const SENSITIVE_KIND_LABELS = {
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
} as const;
export type SensitiveKind = keyof typeof SENSITIVE_KIND_LABELS;
export const SENSITIVE_KINDS = Object.keys(SENSITIVE_KIND_LABELS) as readonly SensitiveKind[];

/** A match, [start, end): a specific one wins over a `generic` one (an assignment) on the same characters. */
export interface Hit {
  kind: SensitiveKind;
  start: number;
  end: number;
  generic?: true;
}

/** A pattern of one kind; `keep` drops matches that only look like one (checksums, context). */
export interface Rule {
  pattern: RegExp;
  kind: SensitiveKind | ((match: RegExpExecArray) => SensitiveKind);
  keep?: (match: RegExpExecArray, text: string) => boolean;
  generic?: true;
}

const NO_MATCHES: readonly RegExpExecArray[] = [];

/** Every match of a shared global regex; none, the usual case, allocates nothing (garbage makes the slow tail). */
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

/** The hits of every rule in one text. */
export function ruleHits(rules: readonly Rule[], text: string): Hit[] {
  const hits: Hit[] = [];
  for (const { pattern, kind, keep, generic } of rules) {
    for (const match of allMatches(pattern, text)) {
      if (keep !== undefined && !keep(match, text)) continue;
      const [start, end] = [match.index, match.index + match[0].length];
      hits.push({ kind: typeof kind === 'string' ? kind : kind(match), start, end, ...(generic && { generic }) });
    }
  }
  return hits;
}
