/** Maps ajv errors to problem `errors[]` entries: a JSON pointer and a detail that never echoes the value. */
import type { ErrorObject } from 'ajv';
import type { FieldError } from '../../contract/http.ts';
import { FORM_FIELDS } from '../../contract/fields.ts';

/** Every field of any action, plus the submit-only ones: names safe to repeat back. */
const KNOWN_FIELDS = new Set([...FORM_FIELDS, 'action', 'consent', 'consent_version', 'website', 'form_started_at']);

/** A made-up property name may itself be a secret ({"sk_live_…": 1}): only names the contract knows are repeated. */
const pointerOf = (e: ErrorObject): string => {
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  const extra = params.additionalProperty;
  const child = params.missingProperty ?? (extra !== undefined && KNOWN_FIELDS.has(extra) ? extra : undefined);
  const escaped = child?.replace(/~/g, '~0').replace(/\//g, '~1');
  return `#${e.instancePath}${escaped !== undefined ? `/${escaped}` : ''}`;
};

/** A sender's words for each ajv keyword; any other keyword says ajv's own message. */
const DETAILS: Record<string, (p: Record<string, unknown>, e: ErrorObject) => string> = {
  required: () => 'is required',
  additionalProperties: () => 'is not a field of this action',
  maxLength: (p) => `must be at most ${String(p['limit'])} characters`,
  minLength: () => 'must not be empty',
  enum: (p) => `must be one of: ${(p['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
  const: (p) => `must be ${JSON.stringify(p['allowedValue'])}`,
  type: (p) => `must be of type ${String(p['type'])}`,
  pattern: (_, e) =>
    e.instancePath === '/phone'
      ? 'must be a phone number: digits, spaces and + ( ) . - / only, with the country code'
      : 'must contain visible text, without control or invisible formatting characters',
  format: (p) =>
    p['format'] === 'email'
      ? 'must be an email address, such as name@example.com'
      : `must be a valid ${String(p['format'])}`,
};

/** One entry per pointer and detail, in ajv's order. */
export function fieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out = new Map<string, FieldError>();
  for (const e of errors ?? []) {
    const pointer = pointerOf(e);
    const unknownName = e.keyword === 'additionalProperties' && pointer === `#${e.instancePath}`;
    const detail = unknownName
      ? 'has an unknown property (its name is not repeated here)'
      : Object.hasOwn(DETAILS, e.keyword)
        ? DETAILS[e.keyword]!(e.params as Record<string, unknown>, e)
        : (e.message ?? 'is invalid');
    out.set(`${pointer} ${detail}`, { pointer, detail });
  }
  return [...out.values()];
}
