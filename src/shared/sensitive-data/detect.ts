/**
 * What the function and the page share, without secretlint or Node: the page runs the function's
 * own credential and card rules through the same code, so a field it flags is one the function refuses.
 */
import { credentialHits } from './credentials.ts';
import { paymentCardHits } from './identifiers.ts';
import { type Hit, SENSITIVE_KIND_LABELS, SENSITIVE_KINDS, type SensitiveKind } from './kinds.ts';

/** Nothing we detect is shorter (a DNI is 9 characters), so enum-like fields ("1-10") skip the scan. */
export const MIN_SCANNED_LENGTH = 8;

/**
 * Characters that show nothing (or nothing of their own) and would split a value from its pattern:
 * C0 controls but tab, LF and CR; invisible format characters; combining marks left after NFKC
 * (U+034F, variation selectors U+FE00-FE0F and U+E0100-E01EF among them); the Hangul fillers
 * U+115F, U+1160 and U+3164 (NFKC makes U+FFA0 the last); the braille blank U+2800; tag characters.
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u00AD\u115F\u1160\u180E\u200B-\u200F\u2060-\u2064\u2800\u3164\uFEFF\u{E0000}-\u{E007F}]|\p{M}/gu;

/** Look-alikes made plain ASCII (NFKC: full-width digits, no-break spaces), invisibles removed. */
export const normalize = (text: string): string =>
  /^[\t\n\r\u0020-\u007E]*$/.test(text) ? text : text.normalize('NFKC').replace(INVISIBLE, '');

/** The distinct kinds among one text's hits, in SENSITIVE_KINDS order; a generic hit yields to a specific one on the same characters. */
export function kindsIn(hits: readonly Hit[]): SensitiveKind[] {
  const overlaps = (a: Hit, b: Hit) => a.start < b.end && b.start < a.end;
  const kept = hits.filter((hit) => !hit.generic || !hits.some((other) => !other.generic && overlaps(hit, other)));
  return SENSITIVE_KINDS.filter((kind) => kept.some((hit) => hit.kind === kind));
}

/**
 * The page's check, so people see a likely secret at its field before anything leaves the page:
 * what one field value seems to hold ("a cloud access key"), scanned as the function scans it.
 */
export function findSecret(value: string): string | undefined {
  const text = normalize(value);
  // National IDs and IBANs stay with the function: ibantools would double the page's script (10 KB gzipped at most).
  const [kind] = value.length < MIN_SCANNED_LENGTH ? [] : kindsIn([...credentialHits(text), ...paymentCardHits(text)]);
  return kind && SENSITIVE_KIND_LABELS[kind];
}
