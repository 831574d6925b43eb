/** Maps ajv errors to problem `errors[]` entries: a JSON pointer and a detail that never echoes the value. */
import type { ErrorObject } from 'ajv';
import type { FieldError } from './http.ts';

const pointerOf = (e: ErrorObject): string => {
  const params = e.params as { missingProperty?: string; additionalProperty?: string };
  const child = params.missingProperty ?? params.additionalProperty;
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
      return e.instancePath.endsWith('/email') ? 'must be an email address' : 'has an invalid format';
    default:
      return e.message ?? 'is invalid';
  }
}

export function fieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of errors ?? []) {
    const error = { pointer: pointerOf(e), detail: detailOf(e) };
    const key = `${error.pointer} ${error.detail}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(error);
    }
  }
  return out;
}
