/**
 * Finds credentials, secrets, card, bank and ID numbers in a request (secretlint's preset, then our
 * detectors for what it leaves out). Each needs a value's shape, not a word, so security talk passes.
 */
import { credentialHits } from '../../shared/sensitive-data/credentials.ts';
import { kindsIn, MIN_SCANNED_LENGTH, normalize } from '../../shared/sensitive-data/detect.ts';
import { identifierHits } from '../../shared/sensitive-data/identifiers.ts';
import { SENSITIVE_KIND_LABELS, type SensitiveKind } from '../../shared/sensitive-data/kinds.ts';
import { secretlintHitsEach } from './secretlint.ts';

/** `pointer`: a JSON Pointer in URI-fragment form, e.g. "#/constraints" or "#/notes/0". */
export type SensitiveFinding = { pointer: string; kind: SensitiveKind; label: string };

/** Thrown when a detector fails; carries no part of the scanned text: a fixed message, no cause. */
export class SensitiveDataScanError extends Error {
  constructor() {
    super('The sensitive-data scan failed');
    this.name = 'SensitiveDataScanError';
  }
}

/** One reference token (RFC 6901) for a URI fragment; a lone surrogate (JSON allows one) becomes U+FFFD first. */
const encodeSegment = (segment: string): string =>
  encodeURIComponent(segment.toWellFormed().replaceAll('~', '~0').replaceAll('/', '~1'));

/** One text to scan: the string at `pointer`, or the keys of the object there (which could carry a secret too). */
type Target = { text: string; pointer: string; keys: boolean };

/** Every string (and every object's keys) in document order. Bodies are schema-valid, so shallow. */
function collectTargets(value: unknown, pointer: string, targets: Target[]): Target[] {
  if (typeof value === 'string' && value.length >= MIN_SCANNED_LENGTH) {
    targets.push({ text: value, pointer, keys: false });
  } else if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    const longKeys = Array.isArray(value)
      ? []
      : entries.map(([key]) => key).filter((key) => key.length >= MIN_SCANNED_LENGTH);
    if (longKeys.length > 0) targets.push({ text: longKeys.join('\n'), pointer, keys: true });
    for (const [key, child] of entries) collectTargets(child, `${pointer}/${encodeSegment(key)}`, targets);
  }
  return targets;
}

/** One finding per field and kind, in document order; a secret key is reported at its object, never repeated. */
export async function findSensitiveData(body: Record<string, unknown>): Promise<SensitiveFinding[]> {
  const targets = collectTargets(body, '#', []);
  const texts = targets.map((target) => normalize(target.text));
  // Never let a detector's error (which might quote the input) reach a log or a reply.
  const fromSecretlint = await secretlintHitsEach(texts).catch(() => {
    throw new SensitiveDataScanError();
  });
  const kindsEach = texts.map((text, index) =>
    kindsIn([...(fromSecretlint[index] ?? []), ...credentialHits(text), ...identifierHits(text)]),
  );
  // Objects with a sensitive key, in document order: an outer one before those inside it.
  const sensitiveKeys = targets.filter((t, i) => t.keys && kindsEach[i]?.length).map((t) => t.pointer);
  const findings = new Map<string, SensitiveFinding>();
  targets.forEach((target, index) => {
    // Clamp to the outermost object that has a sensitive key, if any lies on the way down.
    const at = (p: string) => target.pointer === p || target.pointer.startsWith(`${p}/`);
    const pointer = sensitiveKeys.find(at) ?? target.pointer;
    for (const kind of kindsEach[index] ?? []) {
      findings.set(`${kind} ${pointer}`, { pointer, kind, label: SENSITIVE_KIND_LABELS[kind] });
    }
  });
  return [...findings.values()];
}
