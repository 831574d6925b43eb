import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { invalidHeader, invalidObject, validValue } from '../helpers/openapi-arbitraries.ts';
import { responseChecker } from '../helpers/openapi-responses.ts';

// A small document with the keywords the site's OpenAPI uses, so the tools are checked on their own.
const doc = {
  openapi: '3.1.0',
  paths: {
    '/x': {
      post: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Ok' } } },
          },
          '202': { description: 'later', headers: { 'Retry-After': { schema: { type: 'integer', minimum: 0 } } } },
          '4XX': { description: 'host' },
        },
      },
    },
  },
  components: {
    schemas: {
      Ok: { type: 'object', required: ['status'], properties: { status: { enum: ['received'] } } },
      Req: {
        type: 'object',
        additionalProperties: false,
        required: ['action', 'name'],
        properties: {
          action: { const: 'go' },
          name: { type: 'string', minLength: 1, maxLength: 5 },
          size: { type: 'string', enum: ['s', 'm'] },
          at: { type: 'integer', minimum: 0 },
          key: { type: 'string', pattern: '^[a-z]{2,4}$' },
        },
      },
    },
  },
};
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const req = { $ref: '#/components/schemas/Req' };
const validate = new Ajv2020({ strict: false }).compile(doc.components.schemas.Req);

describe('arbitraries from request schemas', () => {
  it('valid values always satisfy the schema', () => {
    fc.assert(
      fc.property(validValue(doc, req), (v) => validate(v) === true),
      { numRuns: 300 },
    );
  });

  it('invalid values always break it', () => {
    fc.assert(
      fc.property(invalidObject(doc, req), (b) => validate(b.value) === false),
      { numRuns: 300 },
    );
  });

  it('invalid header values never match the pattern', () => {
    fc.assert(
      fc.property(
        invalidHeader({ type: 'string', pattern: '^[a-z]{2,4}$' }),
        (b) => !/^[a-z]{2,4}$/.test(String(b.value)),
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a keyword it cannot generate for', () => {
    expect(() => validValue(doc, { type: 'string', multipleOf: 2 })).toThrow(/multipleOf/);
    expect(() => fc.sample(validValue(doc, { type: 'string', format: 'uuid' }), 1)).toThrow(/format uuid/);
  });
});

describe('response checker', () => {
  const check = responseChecker(doc);
  const reply = (status: number, body: string | null, headers: Record<string, string> = {}) =>
    new Response(body, { status, headers });

  it('accepts a documented status, media type, body and header', async () => {
    expect(
      (await check('/x', 'post', reply(200, '{"status":"received"}', { 'content-type': 'application/json' })))
        .mismatches,
    ).toEqual([]);
    expect((await check('/x', 'post', reply(202, null, { 'retry-after': '3' }))).mismatches).toEqual([]);
    expect((await check('/x', 'post', reply(404, 'Not found', { 'content-type': 'text/plain' }))).mismatches).toEqual(
      [],
    );
  });

  it('reports an undocumented status, media type, body or header', async () => {
    expect((await check('/x', 'post', reply(201, '{}'))).mismatches).toEqual([
      expect.stringMatching(/status 201 is not documented/),
    ]);
    expect((await check('/x', 'post', reply(200, '<p>', { 'content-type': 'text/html' }))).mismatches).toEqual([
      expect.stringMatching(/content type "text\/html"/),
    ]);
    expect(
      (await check('/x', 'post', reply(200, '{"status":"maybe"}', { 'content-type': 'application/json' }))).mismatches,
    ).toEqual([expect.stringMatching(/body/)]);
    expect((await check('/x', 'post', reply(202, null, { 'retry-after': 'soon' }))).mismatches).toEqual([
      expect.stringMatching(/Retry-After/),
    ]);
  });
});

describe('patterns fast-check cannot generate from, and formats', () => {
  const visible = '^(?=[\\s\\S]*[^\\s\\p{Cc}\\p{Cf}])[^\\p{Cc}\\p{Cf}]*$';
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['text', 'email'],
    properties: {
      text: { type: 'string', minLength: 1, maxLength: 30, pattern: visible },
      email: { type: 'string', maxLength: 254, format: 'email' },
    },
  };
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const check = ajv.compile(schema);

  it('valid values match a lookahead-and-Unicode pattern and the email format', () => {
    fc.assert(
      fc.property(validValue({}, schema), (v) => check(v) === true),
      { numRuns: 300 },
    );
  });

  it('invalid values break them', () => {
    fc.assert(
      fc.property(invalidObject({}, schema), (b) => check(b.value) === false),
      { numRuns: 300 },
    );
  });
});
