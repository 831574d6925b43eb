/** Maps ajv errors to problem `errors[]` entries: a JSON pointer and a detail that never echoes the value. */
import type { ErrorObject } from 'ajv';
import type { FieldError } from '../../contract/http.ts';
import { FORM_FIELDS } from '../../contract/fields.ts';

/** Every field of any action, plus the submit-only ones: names safe to repeat back. */
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  ...FORM_FIELDS,
  'action',
  'consent',
  'consent_version',
  'website',
  'form_started_at',
]);

/** A made-up property name may itself be a secret ({"sk_live_…": 1}): only names the contract knows are repeated. */
const pointerOf = (e: ErrorObject): string => {
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  const extra = params.additionalProperty;
  const child = params.missingProperty ?? (extra !== undefined && KNOWN_FIELDS.has(extra) ? extra : undefined);
  const escaped = child?.replace(/~/g, '~0').replace(/\//g, '~1');
  return `#${e.instancePath}${escaped !== undefined ? `/${escaped}` : ''}`;
};

function detailOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a field of this action';
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minLength':
      return 'must not be empty';
    case 'enum':
      return `must be one of: ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case 'type':
      return `must be of type ${String(p.type)}`;
    case 'pattern':
      return e.instancePath === '/phone'
        ? 'must be a phone number: digits, spaces and + ( ) . - / only, with the country code'
        : 'must contain visible text, without control or invisible formatting characters';
    case 'format':
      return p['format'] === 'email'
        ? 'must be an email address, such as name@example.com'
        : `must be a valid ${String(p['format'])}`;
    default:
      return e.message ?? 'is invalid';
  }
}

/** One entry per pointer and detail, in ajv's order. */
export function fieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const out = new Map<string, FieldError>();
  for (const e of errors ?? []) {
    const pointer = pointerOf(e);
    const unknownName = e.keyword === 'additionalProperties' && pointer === `#${e.instancePath}`;
    const detail = unknownName ? 'has an unknown property (its name is not repeated here)' : detailOf(e);
    out.set(`${pointer} ${detail}`, { pointer, detail });
  }
  return [...out.values()];
}
