/**
 * The OpenAPI document tells the whole truth about the served API: requests generated from the
 * document's own request schemas (valid, and breaking one rule each, in bodies and headers) go
 * to `npm start`; every response must be documented (status, media type, body schema, headers),
 * no response may be a 5xx, and every request the document calls invalid must be refused (4xx).
 * TRACE and other methods the document does not list are answered by the platform, not by us,
 * so they are not sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { invalidHeader, invalidObject, validValue, type Schema } from '../helpers/openapi-arbitraries.ts';
import { responseChecker } from '../helpers/openapi-responses.ts';

// Each POST takes about a quarter of a second under `netlify serve` (a fresh worker per
// invocation), so this many keeps the file within about a minute, server start included.
const POST_RUNS = 120;

let site: RunningSite;
let doc: Schema;
let check: ReturnType<typeof responseChecker>;

beforeAll(async () => {
  site = await startSite();
  // The document served is the one checked.
  doc = (await (await fetch(`${site.url}/openapi.json`)).json()) as Schema;
  check = responseChecker(doc);
});
afterAll(async () => site?.stop());

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
  const res = await fetch(`${site.url}${path}`, {
    method: method.toUpperCase(),
    headers: init.headers ?? {},
    body: init.body ?? null,
    redirect: 'manual',
  });
  const { status, mismatches } = await check(path, method, res);
  if (status >= 500) mismatches.push(`${status} is a server error`);
  if (!valid && (status < 400 || status >= 500))
    mismatches.push(`an invalid request (${label}) was answered ${status}, not 4xx`);
  sent.push({ label, valid, status, mismatches });
  return mismatches;
}

const mismatchesOf = (label: string) =>
  sent.filter((s) => s.label.startsWith(label)).flatMap((s) => s.mismatches.map((m) => `${s.label}: ${m}`));

describe('every operation of /openapi.json, against npm start', () => {
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

  it('GET and OPTIONS operations answer as documented', async () => {
    for (const [path, item] of Object.entries(paths())) {
      for (const method of Object.keys(item).filter((m) => m !== 'post')) {
        await send(path, method, {}, true, `${method} ${path}`);
      }
    }
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
      { numRuns: POST_RUNS, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
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
    expect(sent.length).toBeGreaterThanOrEqual(POST_RUNS);
  });
});
