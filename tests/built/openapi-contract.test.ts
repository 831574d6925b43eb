/**
 * The OpenAPI document tells the whole truth about the function: requests generated from the
 * document's own request schemas (valid, and breaking one rule each, in bodies and headers) go to
 * the function's handler in-process, by count and from the run's fixed seed (tests/helpers/fc-seed.ts),
 * so every run sends the same bodies; every response must be documented (status, media type, body
 * schema, headers), no response may be a 5xx, and every request the document calls invalid must be
 * refused (4xx). GET /api/capabilities is a static file, so it is checked against the document
 * through npm start (tests/e2e/npm-start.test.ts). TRACE and other methods the document does not
 * list are answered by the platform, not by us, so they are not sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import handler, { config } from '../../netlify/functions/proposal.mts';
import { readDist } from '../../scripts/local-site/dist.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { invalidHeader, invalidObject, validValue, type Schema } from '../helpers/openapi-arbitraries.ts';
import { responseChecker } from '../helpers/openapi-responses.ts';

// In-process a POST takes about a millisecond, so every run sends this many, whatever the machine's load.
const POST_RUNS = 2_000;

// The document the build published is the one checked.
const doc = JSON.parse(readDist('openapi.json')) as Schema;
const check = responseChecker(doc);
let blobs: TestBlobs;

beforeAll(async () => {
  // Valid submits are stored: in a Blobs server of this file's own.
  blobs = await startBlobs();
});
afterAll(async () => blobs?.stop());

type Paths = Record<string, Record<string, Schema>>;
const paths = () => doc.paths as Paths;

/** What was sent, whether the document calls it valid, and every way the answer disagreed. */
interface Sent {
  label: string;
  valid: boolean;
  status: number;
  mismatches: string[];
}
const sent: Sent[] = [];

async function send(
  path: string,
  method: string,
  init: { headers?: Record<string, string>; body?: string },
  valid: boolean,
  label: string,
) {
  const res = await handler(
    new Request(`http://127.0.0.1${path}`, {
      method: method.toUpperCase(),
      headers: init.headers ?? {},
      body: init.body ?? null,
    }),
  );
  const { status, mismatches } = await check(path, method, res);
  if (status >= 500) mismatches.push(`${status} is a server error`);
  if (!valid && (status < 400 || status >= 500))
    mismatches.push(`an invalid request (${label}) was answered ${status}, not 4xx`);
  sent.push({ label, valid, status, mismatches });
  return mismatches;
}

const mismatchesOf = (label: string) =>
  sent.filter((s) => s.label.startsWith(label)).flatMap((s) => s.mismatches.map((m) => `${s.label}: ${m}`));

describe('every operation of /openapi.json that the function serves, in-process', () => {
  it('documents exactly the operations the site answers', () => {
    const operations = Object.entries(paths()).flatMap(([p, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(operations.sort()).toEqual([
      'GET /api/capabilities',
      'GET /api/proposal',
      'OPTIONS /api/proposal',
      'POST /api/proposal',
    ]);
  });

  it("GET and OPTIONS operations of the function's paths answer as documented", async () => {
    const served = config.path as string[];
    for (const [path, item] of Object.entries(paths()).filter(([p]) => served.includes(p))) {
      for (const method of Object.keys(item).filter((m) => m !== 'post')) {
        await send(path, method, {}, true, `${method} ${path}`);
      }
    }
    expect(sent.map((s) => s.label)).toEqual(['get /api/proposal', 'options /api/proposal']);
    expect(mismatchesOf('get').concat(mismatchesOf('options'))).toEqual([]);
  });

  it('POST: generated valid and invalid bodies and headers get documented answers; invalid ones a 4xx', async () => {
    const post = paths()['/api/proposal']!.post!;
    const content = (post.requestBody as Schema).content as Record<string, { schema: Schema }>;
    const bodySchema = content['application/json']!.schema;
    const keyParam = (post.parameters as Schema[]).find((p) => p.name === 'Idempotency-Key')!;
    const keySchema = keyParam.schema as Schema;
    const json = { 'content-type': 'application/json' };

    const validJson = fc
      .tuple(
        validValue(doc, bodySchema),
        fc.option(validValue(doc, keySchema) as fc.Arbitrary<string>, { nil: undefined }),
      )
      .map(([body, key]) => ({
        label: 'post valid json',
        valid: true,
        headers: { ...json, ...(key === undefined ? {} : { 'idempotency-key': key }) },
        body: JSON.stringify(body),
      }));
    const validForm = validValue(doc, bodySchema).map((body) => ({
      label: 'post valid form',
      valid: true,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(
        Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
      ).toString(),
    }));
    const invalidBody = invalidObject(doc, bodySchema).map((broken) => ({
      label: `post invalid body (${broken.rule})`,
      valid: false,
      headers: json,
      body: JSON.stringify(broken.value),
    }));
    const badKey = fc.tuple(validValue(doc, bodySchema), invalidHeader(keySchema)).map(([body, broken]) => ({
      label: `post invalid header (Idempotency-Key ${broken.rule})`,
      valid: false,
      headers: { ...json, 'idempotency-key': broken.value as string },
      body: JSON.stringify(body),
    }));
    // Media types and bodies outside requestBody.content: few and fixed, so every run sends
    // each of them once rather than leaving them to the draw.
    const otherMedia = [
      {
        label: 'post invalid media type text/plain',
        headers: { 'content-type': 'text/plain' },
        body: '{"action":"guide"}',
      },
      { label: 'post invalid json syntax', headers: json, body: '{"action":' },
      { label: 'post invalid json array', headers: json, body: '[]' },
    ];
    for (const req of otherMedia) {
      expect(await send('/api/proposal', 'post', req, false, req.label)).toEqual([]);
    }

    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 4, arbitrary: validJson },
          { weight: 1, arbitrary: validForm },
          { weight: 4, arbitrary: invalidBody },
          { weight: 2, arbitrary: badKey },
        ),
        async (req) => {
          const found = await send(
            '/api/proposal',
            'post',
            { headers: req.headers, body: req.body },
            req.valid,
            req.label,
          );
          expect(found).toEqual([]);
        },
      ),
      { numRuns: POST_RUNS },
    );
    const posted = sent.filter((s) => s.label.startsWith('post'));
    // The run reached every kind of request and both sides of the contract.
    expect(new Set(posted.map((s) => s.label.replace(/ \(.*$/, '')))).toEqual(
      new Set([
        'post valid json',
        'post valid form',
        'post invalid body',
        'post invalid header',
        'post invalid media type text/plain',
        'post invalid json syntax',
        'post invalid json array',
      ]),
    );
    expect(posted.some((s) => s.status === 200)).toBe(true);
    expect(posted.some((s) => s.status === 201 || s.status === 202)).toBe(true);
  });

  it('zero mismatches and zero 5xx over the whole run', () => {
    expect(sent.flatMap((s) => s.mismatches)).toEqual([]);
    expect(sent.filter((s) => s.status >= 500)).toEqual([]);
    // Every generated request was sent: the run is bounded by count, never by time.
    expect(sent.filter((s) => s.label.startsWith('post')).length).toBe(POST_RUNS + 3);
  });
});
