/**
 * Checks an HTTP response against an OpenAPI 3.1 document with ajv: the status is documented
 * (exactly or as `4XX`), the media type is one the response declares, a JSON body matches that
 * media type's schema, documented response headers that are present match theirs, and the API's
 * own headers (Retry-After, Idempotent-Replayed) are sent only where documented.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Schema } from './openapi-arbitraries.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const DOC_ID = 'https://openapi.test/openapi.json';

/** Headers that carry the API's meaning (a delay, a replay): documented wherever they are sent. */
const API_HEADERS = ['retry-after', 'idempotent-replayed'];

const pointer = (...keys: string[]) => keys.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export interface Checked {
  status: number;
  mismatches: string[];
}

export function responseChecker(doc: Schema) {
  // strict: false, because the document is an OpenAPI object, not a schema: only the parts our
  // $refs point into are used as schemas.
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (path: string) => {
    let v = compiled.get(path);
    if (!v) compiled.set(path, (v = ajv.compile({ $ref: `${DOC_ID}#/${path}` })));
    return v;
  };
  const paths = doc.paths as Record<string, Record<string, { responses: Record<string, Schema> }>>;

  return async function check(path: string, method: string, res: Response): Promise<Checked> {
    const mismatches: string[] = [];
    const responses = paths[path]?.[method]?.responses ?? {};
    const code = String(res.status);
    const key = code in responses ? code : `${code[0]}XX` in responses ? `${code[0]}XX` : undefined;
    const text = await res.text();
    if (!key)
      return {
        status: res.status,
        mismatches: [`status ${code} is not documented for ${method.toUpperCase()} ${path}`],
      };
    const response = responses[key]!;
    const base = pointer('paths', path, method, 'responses', key);
    // The API's own headers are never sent on a reply that does not document them.
    const documented = Object.keys(response.headers ?? {}).map((name) => name.toLowerCase());
    for (const name of API_HEADERS)
      if (res.headers.has(name) && !documented.includes(name))
        mismatches.push(`${code} header ${name} is sent but not documented`);
    for (const name of Object.keys(response.headers ?? {})) {
      const value = res.headers.get(name);
      if (value === null) continue;
      const typed = /^\d+$/.test(value) ? Number(value) : value;
      const validate = validatorAt(`${base}/${pointer('headers', name, 'schema')}`);
      if (!validate(typed)) mismatches.push(`${code} header ${name}: ${ajv.errorsText(validate.errors)}`);
    }
    const content = response.content as Record<string, Schema> | undefined;
    if (!content) return { status: res.status, mismatches };
    const essence = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!(essence in content)) {
      mismatches.push(`${code} content type "${essence}" is not one of ${Object.keys(content).join(', ')}`);
      return { status: res.status, mismatches };
    }
    if (/json$/.test(essence)) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        mismatches.push(`${code} ${essence} body is not JSON`);
        return { status: res.status, mismatches };
      }
      const validate = validatorAt(`${base}/${pointer('content', essence, 'schema')}`);
      if (!validate(body)) mismatches.push(`${code} ${essence} body: ${ajv.errorsText(validate.errors)}`);
    }
    return { status: res.status, mismatches };
  };
}
