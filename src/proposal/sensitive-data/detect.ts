/**
 * Our own detectors, which need neither secretlint nor Node: one text in, the kinds it holds out.
 * The function runs them all and adds secretlint's hits (./secretlint.ts); the workspace page runs
 * PAGE_DETECTORS through the same code, so a field the page flags is one the function refuses.
 */
import { credentialHits } from './credentials.ts';
import { identifierHits, paymentCardHits } from './identifiers.ts';
import { proseSecretHits } from './prose-secrets.ts';
import { type Hit, SENSITIVE_KINDS, type SensitiveKind } from './kinds.ts';

/**
 * Shorter strings cannot hold anything we detect (the shortest, a Spanish DNI, is 9 characters;
 * `pwd=` with a six-character value is 10), so enum-like fields ("1-10", "submit") skip the scan.
 */
export const MIN_SCANNED_LENGTH = 8;

/**
 * Characters that would split a value so no pattern sees it whole: zero-width and other invisible
 * format characters, and C0 controls other than tab, line feed and carriage return.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u00AD\u180E\u200B-\u200F\u2060-\u2064\uFEFF]/g;
const PLAIN_ASCII = /^[\t\n\r\u0020-\u007E]*$/;

/**
 * Makes look-alike input visible to the ASCII patterns: full-width digits and letters, no-break
 * spaces (NFKC); invisible and control characters removed. Printable ASCII, the usual case, is
 * returned as is.
 */
export function normalize(text: string): string {
  if (PLAIN_ASCII.test(text)) return text;
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

const overlaps = (a: Hit, b: Hit): boolean => a.start < b.end && b.start < a.end;

type Detector = (text: string) => Hit[];

/** Everything the function runs besides secretlint. */
export const ALL_DETECTORS: readonly Detector[] = [credentialHits, proseSecretHits, identifierHits];

/**
 * What the page runs too: credentials, secrets in prose and card numbers. National IDs and IBANs
 * stay with the function: with ibantools' country tables they would double the page's script,
 * which must stay within 10 KB gzipped.
 */
export const PAGE_DETECTORS: readonly Detector[] = [
  credentialHits,
  proseSecretHits,
  (text) => {
    const hits: Hit[] = [];
    paymentCardHits(text, hits);
    return hits;
  },
];

/**
 * The distinct kinds among the detectors' hits and `extra` ones (secretlint's, in the function)
 * in one normalized text, in SENSITIVE_KINDS order.
 */
export function kindsIn(text: string, extra: readonly Hit[], detectors: readonly Detector[]): SensitiveKind[] {
  const hits = [...extra, ...detectors.flatMap((detect) => detect(text))];
  const specific = hits.filter((hit) => hit.generic === undefined);
  const kept = hits.filter((hit) => hit.generic === undefined || !specific.some((other) => overlaps(hit, other)));
  const kinds = new Set(kept.map((hit) => hit.kind));
  return SENSITIVE_KINDS.filter((kind) => kinds.has(kind));
}

/** The kinds the detectors find in one field value, scanned as the function scans it. */
export function detectKinds(value: string, detectors: readonly Detector[]): SensitiveKind[] {
  return value.length < MIN_SCANNED_LENGTH ? [] : kindsIn(normalize(value), [], detectors);
}
