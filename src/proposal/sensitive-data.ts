/**
 * The sensitive-data guard of POST /api/proposal: finds credentials, secrets, payment card numbers
 * and national ID numbers in the text of a request so the function can refuse it (422, problem type
 * `sensitive-data`) naming the field and the kind, never the value.
 *
 * Detection is two layers over every string in the body:
 * - secretlint's recommended preset (the maintained detector for provider tokens, private keys,
 *   basic-auth URLs and database URLs), see ./sensitive-data/secretlint.ts;
 * - our own small detectors for what the preset leaves out (JWTs, `password=` assignments,
 *   connection strings, AWS example keys, card numbers, SSNs, UK NI and Spanish DNI/NIE numbers),
 *   see ./sensitive-data/credentials.ts and ./sensitive-data/identifiers.ts.
 *
 * Ordinary security talk ("our password policy requires 14 characters", "we rotate access keys
 * every 90 days", "PCI DSS scope") passes: every detector needs the value's shape, not a word.
 */
import { ALL_DETECTORS, kindsIn, MIN_SCANNED_LENGTH, normalize } from './sensitive-data/detect.ts';
import { type Hit, SENSITIVE_KIND_LABELS, type SensitiveKind } from './sensitive-data/kinds.ts';
import { secretlintHitsEach } from './sensitive-data/secretlint.ts';

export { SENSITIVE_KIND_LABELS, SENSITIVE_KINDS, type SensitiveKind } from './sensitive-data/kinds.ts';

export interface SensitiveFinding {
  /** JSON Pointer in URI-fragment form, e.g. "#/constraints" or "#/notes/0". */
  pointer: string;
  kind: SensitiveKind;
  /** Human words for the kind, e.g. "a cloud access key". */
  label: string;
}

/** Thrown when a detector fails; carries no part of the scanned text: a fixed message, no cause. */
export class SensitiveDataScanError extends Error {
  constructor() {
    super('The sensitive-data scan failed');
    this.name = 'SensitiveDataScanError';
  }
}

/**
 * Escapes one reference token (RFC 6901) and percent-encodes it for a URI fragment. A lone UTF-16
 * surrogate (JSON allows "\ud800" in a key) has no UTF-8 form and would make encodeURIComponent
 * throw, so it is replaced with U+FFFD first.
 */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment.toWellFormed().replaceAll('~', '~0').replaceAll('/', '~1'));
}

/** One text to scan: a string value, or the keys of one object (which could carry a secret too). */
interface Target {
  text: string;
  /** Pointer of the string, or of the object whose keys these are. */
  pointer: string;
  /** Pointers of the objects above this value (outermost first), for redaction by sensitive keys. */
  ancestors: readonly string[];
  /** True when `text` is the object's keys rather than a value. */
  keys: boolean;
}

/** Collects every string (and every object's keys) in document order, without recursion. */
function collectTargets(body: Record<string, unknown>): Target[] {
  const targets: Target[] = [];
  const seen = new WeakSet<object>();
  const stack: { value: unknown; pointer: string; ancestors: readonly string[] }[] = [
    { value: body, pointer: '#', ancestors: [] },
  ];
  while (stack.length > 0) {
    const { value, pointer, ancestors } = stack.pop() ?? { value: undefined, pointer: '#', ancestors: [] };
    if (typeof value === 'string') {
      if (value.length >= MIN_SCANNED_LENGTH) targets.push({ text: value, pointer, ancestors, keys: false });
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    const inner = [...ancestors, pointer];
    const children: { value: unknown; pointer: string; ancestors: readonly string[] }[] = [];
    if (Array.isArray(value)) {
      value.forEach((item: unknown, index) =>
        children.push({ value: item, pointer: `${pointer}/${index}`, ancestors: inner }),
      );
    } else {
      const entries = Object.entries(value);
      const longKeys = entries.map(([key]) => key).filter((key) => key.length >= MIN_SCANNED_LENGTH);
      if (longKeys.length > 0) targets.push({ text: longKeys.join('\n'), pointer, ancestors, keys: true });
      for (const [key, child] of entries) {
        children.push({ value: child, pointer: `${pointer}/${encodeSegment(key)}`, ancestors: inner });
      }
    }
    // Reverse so the stack pops children in document order.
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const child = children[i];
      if (child !== undefined) stack.push(child);
    }
  }
  return targets;
}

/**
 * Every sensitive value found in the string fields of a request body (walks nested objects and
 * arrays; ignores numbers, booleans and null). At most one finding per field and kind, in document
 * order. Never returns or logs the value: a finding is a pointer, a kind and the kind's words.
 *
 * A secret used as an object key is reported at that object's pointer, and so is everything found
 * beneath it, so that no pointer repeats the key.
 */
export async function findSensitiveData(body: Record<string, unknown>): Promise<SensitiveFinding[]> {
  const targets = collectTargets(body);
  const texts = targets.map((target) => normalize(target.text));
  let fromSecretlint: Hit[][];
  try {
    fromSecretlint = await secretlintHitsEach(texts);
  } catch {
    // Never let a detector's error (which might quote the input) reach a log or a reply.
    throw new SensitiveDataScanError();
  }
  const kindsPerTarget = texts.map((text, index) => kindsIn(text, fromSecretlint[index] ?? [], ALL_DETECTORS));

  const objectsWithSensitiveKeys = new Set<string>();
  targets.forEach((target, index) => {
    if (target.keys && (kindsPerTarget[index]?.length ?? 0) > 0) objectsWithSensitiveKeys.add(target.pointer);
  });

  const findings: SensitiveFinding[] = [];
  const reported = new Set<string>();
  targets.forEach((target, index) => {
    // Clamp to the outermost object that has a sensitive key, if any lies on the way down.
    const pointer =
      [...target.ancestors, ...(target.keys ? [target.pointer] : [])].find((ancestor) =>
        objectsWithSensitiveKeys.has(ancestor),
      ) ?? target.pointer;
    for (const kind of kindsPerTarget[index] ?? []) {
      const id = `${kind} ${pointer}`;
      if (reported.has(id)) continue;
      reported.add(id);
      findings.push({ pointer, kind, label: SENSITIVE_KIND_LABELS[kind] });
    }
  });
  return findings;
}
