/**
 * Our own detectors, without secretlint or Node. The function runs them all beside secretlint; the
 * page runs PAGE_DETECTORS through the same code, so a field the page flags is one the function refuses.
 */
import { credentialHits } from './credentials.ts';
import { identifierHits, paymentCardHits } from './identifiers.ts';
import { type Hit, SENSITIVE_KIND_LABELS, SENSITIVE_KINDS, type SensitiveKind } from './kinds.ts';

/** Nothing we detect is shorter (a DNI is 9 characters), so enum-like fields ("1-10") skip the scan. */
export const MIN_SCANNED_LENGTH = 8;

// Invisible format characters and C0 controls (but tab, LF, CR) would split a value from its pattern.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u00AD\u180E\u200B-\u200F\u2060-\u2064\uFEFF]/g;

/** Look-alikes made plain ASCII (NFKC: full-width digits, no-break spaces), invisibles removed. */
export const normalize = (text: string): string =>
  /^[\t\n\r\u0020-\u007E]*$/.test(text) ? text : text.normalize('NFKC').replace(INVISIBLE, '');

type Detector = (text: string) => Hit[];

export const ALL_DETECTORS: readonly Detector[] = [credentialHits, identifierHits];

/** National IDs and IBANs stay with the function: ibantools would double the page's script (10 KB gzipped at most). */
const PAGE_DETECTORS: readonly Detector[] = [credentialHits, paymentCardHits];

/** The distinct kinds of the detectors' and `extra` (secretlint's) hits in one normalized text, in SENSITIVE_KINDS order. */
export function kindsIn(text: string, extra: readonly Hit[], detectors: readonly Detector[]): SensitiveKind[] {
  const hits = [...extra, ...detectors.flatMap((detect) => detect(text))];
  const overlaps = (a: Hit, b: Hit) => a.start < b.end && b.start < a.end;
  // A generic hit yields to a specific one on the same characters.
  const kept = hits.filter((hit) => !hit.generic || !hits.some((other) => !other.generic && overlaps(hit, other)));
  return SENSITIVE_KINDS.filter((kind) => kept.some((hit) => hit.kind === kind));
}

/**
 * The page's check, so people see a likely secret at its field before anything leaves the page:
 * what one field value seems to hold ("a cloud access key"), scanned as the function scans it.
 */
export function findSecret(value: string): string | undefined {
  const [kind] = value.length < MIN_SCANNED_LENGTH ? [] : kindsIn(normalize(value), [], PAGE_DETECTORS);
  return kind && SENSITIVE_KIND_LABELS[kind];
}
