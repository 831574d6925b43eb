/**
 * fast-check arbitraries generated from an OpenAPI 3.1 document's own request schemas: valid
 * values, and values that break exactly one rule of the schema. Covers the JSON Schema keywords
 * the document uses (type, enum, const, minLength, maxLength, pattern, minimum, properties,
 * required, additionalProperties: false, oneOf, $ref); an unknown keyword fails loudly so the
 * generator never silently produces values the schema does not describe.
 */
import fc from 'fast-check';

export type Schema = Record<string, unknown>;

const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'properties',
  'required',
  'additionalProperties',
  'oneOf',
  '$ref',
  'discriminator',
  'description',
  'title',
  'format',
]);

/** Resolves a local `$ref` (`#/components/schemas/X`) against the document. */
export function resolve(doc: Schema, schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (node, key) => (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')],
      doc,
    );
  return resolve(doc, target as Schema);
}

function checkKeywords(schema: Schema): void {
  const unknown = Object.keys(schema).filter((k) => !HANDLED.has(k));
  if (unknown.length > 0) throw new Error(`openapi-arbitraries: no generator for keyword(s) ${unknown.join(', ')}`);
}

/** JSON Schema patterns are ECMA-262 regular expressions with Unicode semantics (as ajv reads them). */
const patternOf = (schema: Schema) =>
  typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : undefined;

/** Addresses every email validator accepts: a subset of valid addresses, never an invalid one. */
const EMAIL = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9.]{0,14}[a-z0-9]$/),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,12}[a-z0-9]$/),
    fc.constantFrom('com', 'io', 'example', 'co.uk'),
  )
  .filter(([local]) => !local.includes('..'))
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);

/**
 * Strings within the length bounds and the pattern; long ones are rare so bodies stay small.
 * A pattern fast-check can generate from is used directly; one it cannot (lookahead, Unicode
 * properties) filters generated text instead.
 */
function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = (schema.minLength as number | undefined) ?? 0;
  const max = (schema.maxLength as number | undefined) ?? 200;
  const length = (s: string) => s.length >= min && s.length <= max;
  if (schema.format === 'email') return EMAIL.filter(length);
  if (schema.format !== undefined)
    throw new Error(
      `openapi-arbitraries: no generator for format ${typeof schema.format === 'string' ? schema.format : JSON.stringify(schema.format)}`,
    );
  const pattern = patternOf(schema);
  if (pattern) {
    try {
      return fc.stringMatching(pattern).filter(length);
    } catch {
      // fast-check cannot build strings for this pattern; filter generated text below.
    }
  }
  const short = Math.min(max, min + 40);
  return fc
    .oneof(
      {
        weight: 8,
        arbitrary: fc.string({
          minLength: min,
          maxLength: short,
          unit: fc.constantFrom('grapheme', 'grapheme-ascii') as never,
        }),
      },
      { weight: 1, arbitrary: fc.string({ minLength: max, maxLength: max }) },
    )
    .filter((s) => length(s) && (!pattern || pattern.test(s)));
}

/** A value the schema accepts. */
export function validValue(doc: Schema, input: Schema): fc.Arbitrary<unknown> {
  const schema = resolve(doc, input);
  checkKeywords(schema);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as Schema[]).map((s) => validValue(doc, s)));
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1e9, max: 2 ** 31 });
    case 'boolean':
      return fc.boolean();
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      const shape = Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, validValue(doc, s)]));
      // fast-check types requiredKeys by the record's keys, which are only known at run time here.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      return fc.record(shape, { requiredKeys: required.filter((n) => n in properties) as never });
    }
    default:
      throw new Error(`openapi-arbitraries: no generator for type ${String(schema.type)}`);
  }
}

/** One way a value breaks its schema, with a label for failure messages. */
export interface Broken {
  value: unknown;
  rule: string;
}

/** A value that breaks exactly one rule of an object schema (or of one of its properties). */
export function invalidObject(doc: Schema, input: Schema): fc.Arbitrary<Broken> {
  const schema = resolve(doc, input);
  if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as Schema[]).map((s) => invalidObject(doc, s)));
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const valid = validValue(doc, schema) as fc.Arbitrary<Record<string, unknown>>;
  const breakers: fc.Arbitrary<Broken>[] = [];
  if (required.length > 0) {
    breakers.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([v, name]) => {
        const { [name]: _dropped, ...rest } = v;
        return { value: rest, rule: `required ${name} missing` };
      }),
    );
  }
  if (schema.additionalProperties === false) {
    breakers.push(
      fc
        .tuple(
          valid,
          fc.stringMatching(/^[a-z_]{1,20}$/).filter((n) => !(n in properties)),
        )
        .map(([v, name]) => ({ value: { ...v, [name]: 'x' }, rule: `unknown property ${name}` })),
    );
  }
  for (const [name, raw] of Object.entries(properties)) {
    const p = resolve(doc, raw);
    const wrong = invalidScalar(p);
    if (!wrong) continue;
    breakers.push(
      fc.tuple(valid, wrong).map(([v, bad]) => ({ value: { ...v, [name]: bad.value }, rule: `${name}: ${bad.rule}` })),
    );
  }
  return fc.oneof(...breakers);
}

/** A value of the wrong type or outside one bound of a scalar schema. */
function invalidScalar(schema: Schema): fc.Arbitrary<Broken> | undefined {
  const options: fc.Arbitrary<Broken>[] = [];
  if ('const' in schema)
    options.push(fc.constant({ value: schema.const === true ? 'true' : `${String(schema.const)}-not`, rule: 'const' }));
  if (Array.isArray(schema.enum)) {
    options.push(
      fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((s) => !(schema.enum as unknown[]).includes(s))
        .map((value) => ({ value, rule: 'enum' })),
    );
  }
  if (schema.type === 'string') {
    options.push(
      fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)).map((value) => ({ value, rule: 'type string' })),
    );
    const pattern = patternOf(schema);
    if (pattern) {
      // Text an ECMA pattern can refuse: control and zero-width characters, blank text, no "@".
      const candidates = ['a\u0007b', '\u200b\u200b', 'line\u0000break', 'no-at-sign', '   '].filter(
        (s) => !pattern.test(s),
      );
      if (candidates.length > 0)
        options.push(fc.constantFrom(...candidates).map((value) => ({ value, rule: 'pattern' })));
    }
    if (schema.format === 'email')
      options.push(
        fc
          .constantFrom('no-at-sign', 'two@@example.com', 'a@', '@example.com')
          .map((value) => ({ value, rule: 'format email' })),
      );
    if (typeof schema.maxLength === 'number') {
      const max = schema.maxLength;
      options.push(
        fc.integer({ min: 1, max: 20 }).map((extra) => ({ value: 'a'.repeat(max + extra), rule: `maxLength ${max}` })),
      );
    }
    if (schema.minLength === 1) options.push(fc.constant({ value: '', rule: 'minLength 1' }));
  }
  if (schema.type === 'integer') {
    options.push(fc.constantFrom<unknown>('12', 1.5, null).map((value) => ({ value, rule: 'type integer' })));
    if (typeof schema.minimum === 'number') options.push(fc.constant({ value: schema.minimum - 1, rule: 'minimum' }));
  }
  return options.length > 0 ? fc.oneof(...options) : undefined;
}

/** A header value that breaks its schema (length or pattern). */
export function invalidHeader(schema: Schema): fc.Arbitrary<Broken> {
  const options: fc.Arbitrary<Broken>[] = [];
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern);
    options.push(
      fc
        .string({ minLength: 1, maxLength: 40, unit: 'grapheme-ascii' })
        // Fetch refuses control characters in headers and trims outer spaces; keep what can be sent.
        // eslint-disable-next-line no-control-regex -- the control characters are what is removed
        .map((s) => s.replace(/[\x00-\x1f\x7f]/g, '').trim())
        .filter((s) => s.length > 0 && !pattern.test(s))
        .map((value) => ({ value, rule: 'pattern' })),
      fc.integer({ min: 256, max: 400 }).map((n) => ({ value: 'k'.repeat(n), rule: 'too long' })),
      fc.constant({ value: '""', rule: 'empty quoted' }),
    );
  }
  return fc.oneof(...options);
}
