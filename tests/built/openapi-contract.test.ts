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
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import handler, { config } from '../../netlify/functions/proposal.mts';
import { readDist } from '../../scripts/local-site/dist.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { PROBLEM_TYPES } from '../../src/contract/http.ts';
import { grantForKey } from '../../src/proposal/consent/grants.ts';
import { linkToken } from '../../src/proposal/notify/links.ts';
import { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { functionDoors, knowledge } from '../helpers/function-doors.ts';
import { invalidHeader, invalidObject, validValue, type Schema } from '../helpers/openapi-arbitraries.ts';
import { responseChecker } from '../helpers/openapi-responses.ts';
import { envOf, newWebhookSecret } from '../helpers/submit-fixtures.ts';

// In-process a POST takes about a millisecond, so every run sends this many, whatever the machine's load.
const POST_RUNS = 2_000;

// The document the build published is the one checked.
const doc = JSON.parse(readDist('openapi.json')) as Schema;
const check = responseChecker(doc);
let blobs: TestBlobs;
let crm: TestCrmServer;
/** Confirmation links need the secret: the shipped entry reads it with its first invocation. */
const SECRET = randomBytes(32).toString('base64url');
const savedSecret = process.env['CONSENT_SECRET'];

beforeAll(async () => {
  // Valid submits are stored: in a Blobs server of this file's own.
  [blobs, crm] = await Promise.all([startBlobs(), startCrmServer()]);
  process.env['CONSENT_SECRET'] = SECRET;
});
afterAll(async () => {
  if (savedSecret === undefined) delete process.env['CONSENT_SECRET'];
  else process.env['CONSENT_SECRET'] = savedSecret;
  await crm?.stop();
  await blobs?.stop();
});

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

/** A reply reached on purpose: its status, problem type and body, and how it disagreed with the document. */
interface Reached {
  label: string;
  status: number;
  type?: string;
  body: Record<string, unknown>;
  mismatches: string[];
}
const reached: Reached[] = [];

/** POSTs `body` to /api/proposal through `door` (the shipped entry unless a configuration needs its own) and checks the reply. */
async function reach(
  label: string,
  body: unknown,
  headers: Record<string, string> = {},
  door: (req: Request) => Promise<Response> = (req) => handler(req),
): Promise<Reached> {
  const res = await door(
    new Request('http://127.0.0.1/api/proposal', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
  const text = await res.clone().text();
  const { status, mismatches } = await check('/api/proposal', 'post', res);
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // An HTML page: its status and media type were checked.
  }
  const type = typeof parsed['type'] === 'string' ? parsed['type'].replace(/^.*#problem-/, '') : undefined;
  const answer = { label, status, ...(type !== undefined && { type }), body: parsed, mismatches };
  reached.push(answer);
  return answer;
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

describe('every reply the document describes, reached on purpose and checked against it', () => {
  const key = () => ({ 'idempotency-key': randomUUID() });
  const link = (action: string, id: string, token: string, answer?: string) => ({
    action,
    request_id: id,
    token,
    ...(answer !== undefined && { answer }),
  });

  it("submit results, the confirmation page's three actions (a stored request and a draft confirmed first), every problem", async () => {
    await reach('guide', EXAMPLE_REQUESTS.guide);
    await reach('summarize', EXAMPLE_REQUESTS.summarize);
    const received = await reach('submit received', EXAMPLE_REQUESTS.submit, { 'idempotency-key': 'documented-1' });
    expect(received.status).toBe(201);
    await reach('submit replayed', EXAMPLE_REQUESTS.submit, { 'idempotency-key': 'documented-1' });
    const id = received.body['request_id'] as string;
    const token = (answer: 'confirm' | 'deny') => linkToken(SECRET, id, answer);

    // A stored request's links: what they name, "Yes", "Not me" after it, and each used.
    expect((await reach('check confirm link', link('check_link', id, token('confirm'), 'confirm'))).body).toMatchObject(
      { status: 'valid', company: EXAMPLE_REQUESTS.submit.company },
    );
    await reach('check deny link', link('check_link', id, token('deny'), 'deny'));
    expect((await reach('confirm', link('confirm_request', id, token('confirm')))).body['status']).toBe('confirmed');
    expect((await reach('check used link', link('check_link', id, token('confirm'), 'confirm'))).body).toMatchObject({
      status: 'used',
      answered: 'confirm',
    });
    await reach('confirm again', link('confirm_request', id, token('confirm')));
    expect((await reach('deny after yes', link('deny_request', id, token('deny')))).body['status']).toBe('erased');
    expect((await reach('check erased link', link('check_link', id, token('deny'), 'deny'))).body).toEqual({
      status: 'used',
      answered: 'deny',
    });
    await reach('deny again', link('deny_request', id, token('deny')));
    await reach(
      'a link of another token',
      link('check_link', id, linkToken(SECRET, randomUUID(), 'confirm'), 'confirm'),
    );

    // A draft an MCP client sent the person to confirm before anything is stored: its grant's link.
    const grant = await grantForKey(
      new ProposalsStore(),
      SECRET,
      randomUUID(),
      {
        draft: 'sha-256 of a draft',
        version: knowledge.consent.version,
        summary: { company: 'Draft GmbH', choices: ['Defined project'] },
      },
      new Date(),
    );
    const grantToken = linkToken(SECRET, grant.id, 'confirm');
    expect((await reach('check draft link', link('check_link', grant.id, grantToken, 'confirm'))).body).toMatchObject({
      status: 'valid',
      company: 'Draft GmbH',
      choices: ['Defined project'],
      consent_text: knowledge.consent.text,
    });
    expect((await reach('confirm draft', link('confirm_request', grant.id, grantToken))).body['status']).toBe(
      'confirmed',
    );
    expect(
      (await reach('check used draft link', link('check_link', grant.id, grantToken, 'confirm'))).body,
    ).toMatchObject({
      status: 'used',
      answered: 'confirm',
    });

    // A link past its time, on an instance whose clock is a day and more ahead.
    const late = await reach('submit for later', EXAMPLE_REQUESTS.submit, key());
    const ahead = functionDoors(
      { now: () => new Date(Date.now() + 25 * 3_600_000) },
      envOf({ CONSENT_SECRET: SECRET }),
    );
    const lateId = late.body['request_id'] as string;
    const lateToken = linkToken(SECRET, lateId, 'confirm');
    expect(
      (await reach('check expired link', link('check_link', lateId, lateToken, 'confirm'), {}, ahead.http)).body[
        'status'
      ],
    ).toBe('expired');
    await reach('confirm expired link', link('confirm_request', lateId, lateToken), {}, ahead.http);

    // Every problem a POST can get from the function.
    const { consent: _consent, ...unconsented } = EXAMPLE_REQUESTS.submit;
    await reach('no idempotency key', EXAMPLE_REQUESTS.submit);
    await reach('bad idempotency key', EXAMPLE_REQUESTS.submit, { 'idempotency-key': 'two words' });
    await reach('malformed json', '{"action":');
    await reach('cross-site browser post', EXAMPLE_REQUESTS.guide, {
      'sec-fetch-site': 'cross-site',
      origin: 'https://evil.example',
    });
    await reach('too large', { ...EXAMPLE_REQUESTS.guide, question: 'a'.repeat(40_000) });
    await reach('other media type', '{}', { 'content-type': 'text/plain' });
    await reach('no consent', { ...unconsented, consent: false }, key());
    await reach('unknown action', { action: 'delete' });
    await reach('invalid field', { ...EXAMPLE_REQUESTS.guide, company_size: 'huge' });
    await reach('a secret', { ...EXAMPLE_REQUESTS.summarize, blocker: `Our key is AKIA${'QWERTYUIOPASDFGH'}` });
    // The first key's request was erased by its "Not me", and its key with it: another key is reused.
    await reach('submit with a key to reuse', EXAMPLE_REQUESTS.submit, { 'idempotency-key': 'documented-2' });
    await reach(
      'key reused',
      { ...EXAMPLE_REQUESTS.submit, timeline: 'Next year.' },
      { 'idempotency-key': 'documented-2' },
    );
    await reach('filled too fast', { ...EXAMPLE_REQUESTS.submit, form_started_at: Date.now() }, key());
    await reach('a form post', new URLSearchParams({ ...EXAMPLE_REQUESTS.guide }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
  });

  it('the configurations of other instances: a CRM down or given up, strict consent, a key in use, the store down, a bug', async () => {
    const webhook = (url: string, more: Record<string, string> = {}) =>
      envOf({ CRM_PROVIDER: 'webhook', CRM_WEBHOOK_URL: url, CRM_WEBHOOK_SECRET: newWebhookSecret(), ...more });
    // Nothing listens on the discard port: the CRM cannot be reached.
    const down = functionDoors({}, webhook('http://127.0.0.1:9/crm'));
    expect((await reach('submit pending', EXAMPLE_REQUESTS.submit, key(), down.http)).body['status']).toBe('pending');

    let offsetMs = 0;
    const givingUp = functionDoors(
      { now: () => new Date(Date.now() + offsetMs) },
      webhook('http://127.0.0.1:9/crm', { REDELIVERY_MAX_HOURS: '0.0001', REDELIVERY_BACKOFF_SECONDS: '0.1' }),
    );
    const failing = key();
    await reach('submit to give up on', EXAMPLE_REQUESTS.submit, failing, givingUp.http);
    offsetMs = 60_000;
    await givingUp.scheduled();
    expect((await reach('submit failed', EXAMPLE_REQUESTS.submit, failing, givingUp.http)).body['status']).toBe(
      'failed',
    );

    const strict = functionDoors({}, envOf({ CONSENT_CONFIRMATION: 'required', CONSENT_SECRET: SECRET }));
    expect((await reach('submit held', EXAMPLE_REQUESTS.submit, key(), strict.http)).body['status']).toBe(
      'awaiting_confirmation',
    );

    crm.behave({ kind: 'status', status: 200, body: '{}', delayMs: 400 });
    const slow = functionDoors({ inUseWaitMs: 0 }, webhook(`${crm.url}/crm`));
    const busy = key();
    const first = reach('submit holding its key', EXAMPLE_REQUESTS.submit, busy, slow.http);
    await new Promise((resolve) => setTimeout(resolve, 150));
    await reach('key in use', EXAMPLE_REQUESTS.submit, busy, slow.http);
    await first;

    const unreachable = {
      siteID: blobs.siteID,
      token: blobs.token,
      edgeURL: 'http://127.0.0.1:9',
      uncachedEdgeURL: 'http://127.0.0.1:9',
    };
    const storeDown = functionDoors({ store: new ProposalsStore({ location: unreachable }) });
    await reach('store unavailable', EXAMPLE_REQUESTS.submit, key(), storeDown.http);

    // A store whose client throws what no store failure is: a bug, answered 500 without a trace.
    const broken = {
      read: () => Promise.reject(new TypeError('a bug')),
      writeIf: () => Promise.reject(new TypeError('a bug')),
    } as unknown as ProposalsStore;
    await reach('a bug', EXAMPLE_REQUESTS.submit, key(), functionDoors({ store: broken }).http);
  });

  it('agrees with the document every time, and reached every status and problem type a POST can get', () => {
    expect(reached.flatMap((r) => r.mismatches.map((m) => `${r.label}: ${m}`))).toEqual([]);
    const post = (paths()['/api/proposal']!.post as { responses: Record<string, unknown> }).responses;
    // 429 is the platform's, before the function; 405 answers other methods than POST.
    const byUs = Object.keys(post).filter((status) => status !== '429' && status !== '405');
    expect([...new Set(reached.map((r) => String(r.status)))].sort()).toEqual(byUs.sort());
    const types = Object.entries(PROBLEM_TYPES)
      .filter(([, p]) => byUs.includes(String(p.status)))
      .map(([id]) => id);
    expect([...new Set(reached.flatMap((r) => r.type ?? []))].sort()).toEqual(types.sort());
    // Every 200 body the document names: guidance, an overview, a link (named, and erased), an answer.
    const twoHundreds = reached.filter((r) => r.status === 200).map((r) => r.body);
    expect(twoHundreds.map((b) => b['action']).filter((a) => a !== undefined)).toEqual(['guide', 'summarize']);
    expect(twoHundreds.filter((b) => 'consent_text' in b).length).toBeGreaterThan(0);
    expect(twoHundreds.filter((b) => b['status'] === 'used' && !('company' in b))).toHaveLength(1);
    expect(new Set(twoHundreds.flatMap((b) => (typeof b['status'] === 'string' ? [b['status']] : [])))).toEqual(
      new Set(['valid', 'used', 'expired', 'confirmed', 'erased']),
    );
  });
});
