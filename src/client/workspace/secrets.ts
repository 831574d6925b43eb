/**
 * The in-browser check for likely secrets, so people see the problem at the field before anything
 * leaves the page. It runs the function's own credential, prose-secret and card detectors through
 * the same code, so every field it flags is one the function refuses; the function, which also
 * runs secretlint and the national-ID and IBAN checks, still decides.
 */
import { detectKinds, PAGE_DETECTORS } from '../../proposal/sensitive-data/detect.ts';
import { SENSITIVE_KIND_LABELS } from '../../proposal/sensitive-data/kinds.ts';

/** What the text seems to contain ("a cloud access key"), or undefined when nothing was found. */
export function findSecret(text: string): string | undefined {
  const [kind] = detectKinds(text, PAGE_DETECTORS);
  return kind === undefined ? undefined : SENSITIVE_KIND_LABELS[kind];
}
