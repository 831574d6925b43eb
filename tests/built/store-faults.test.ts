/**
 * Exactly once when the real local Blobs server fails (the logic's full matrix, every write of a
 * submit, is in-process: tests/unit/submit-store-faults.test.ts). The HTTP door runs in-process behind
 * a proxy that fails one write of a kind once (5xx, a dropped connection before or after it lands,
 * a success without ETag) while four submits with one Idempotency-Key arrive at once: one stored
 * request, one CRM delivery, one confirmation email, and no reply claiming what the store does not
 * hold. A whole outage is answered 503 with nothing sent; after it, one request. A scheduled run that
 * cannot list what is due gives up quietly and the next one does the work.
 */
import { randomUUID } from 'node:crypto';
import { getStore, setEnvironmentContext } from '@netlify/blobs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORE_RETRY_AFTER_SECONDS } from '../../src/contract/idempotency-rules.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { CLOCK_SKEW_MS } from '../../src/proposal/work/engine.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import {
  on,
  startBlobsFaultProxy,
  type BlobsFaultProxy,
  type BlobsOperation,
  type Fault,
} from '../helpers/blobs-fault-proxy.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { afterReply, functionDoors, type Doors, type Platform } from '../helpers/function-doors.ts';
import { captureLogLines } from '../helpers/log-lines.ts';
import { headerLines, mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { envOf, newWebhookSecret, submitRequest } from '../helpers/submit-fixtures.ts';

const API = 'http://127.0.0.1/api/proposal';
const SENDER = submitRequest().email;
const CONCURRENT = 4;
/** How long an invocation of the HTTP function may run: no claim of it outlives this. */
const INVOCATION_MS = 60_000;

let blobs: TestBlobs;
let proxy: BlobsFaultProxy;
let crm: TestCrmServer;
let smtp: TestSmtp;
let siteID: string;
/** The function's wall clock: moved past a claim instead of waiting for it. */
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
let doors: Doors;

beforeAll(async () => {
  [blobs, crm, smtp] = await Promise.all([startBlobs(), startCrmServer(), startSmtp()]);
  proxy = await startBlobsFaultProxy(blobs.url);
  doors = functionDoors(
    { now, inUseWaitMs: 300 },
    envOf({
      CRM_PROVIDER: 'webhook',
      CRM_WEBHOOK_URL: `${crm.url}/crm`,
      CRM_WEBHOOK_SECRET: newWebhookSecret(),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
    }),
  );
});
afterAll(async () => {
  await Promise.all([proxy?.stop(), crm?.stop(), smtp?.stop()]);
  await blobs?.stop();
});
beforeEach(() => {
  // A site of its own per test: the store starts empty, and every client goes through the proxy.
  siteID = `faults-${randomUUID()}`;
  setEnvironmentContext({ siteID, token: blobs.token, edgeURL: proxy.url, uncachedEdgeURL: proxy.url });
  proxy.heal();
  proxy.seen.length = 0;
  crm.requests.length = 0;
  crm.behave({ kind: 'status', status: 200, body: '{"ok":true}' });
  smtp.messages.length = 0;
  offsetMs = 0;
  vi.restoreAllMocks();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { status?: string; request_id?: string; confirmation_email?: string; type?: string };
}

async function submit(key: string, platform?: Platform): Promise<Answer> {
  const res = await doors.http(
    new Request(API, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(submitRequest()),
    }),
    { limitMs: INVOCATION_MS, ...platform },
  );
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Answer['body'] };
}

/** What the store holds, read straight from the server (not through the proxy). */
async function storedRecords(): Promise<ProposalRecord[]> {
  // Site id and token given: the client uses these options, not the environment's context.
  const store = getStore({
    name: 'proposals',
    siteID,
    token: blobs.token,
    consistency: 'strong',
    edgeURL: blobs.url,
    uncachedEdgeURL: blobs.url,
  });
  const { blobs: listed } = await store.list({ prefix: 'requests/' });
  return Promise.all(listed.map(async ({ key }) => (await store.get(key, { type: 'json' })) as ProposalRecord));
}

const deliveries = () => crm.requests.filter((r) => r.path === '/crm');
const confirmations = () => mailsTo(smtp.messages, SENDER);
const messageId = (raw: string) => headerLines(raw).find(([name]) => name.toLowerCase() === 'message-id')?.[1];

/** The invariants that hold at every moment, whatever failed. */
async function expectInvariants(answers: Answer[]): Promise<ProposalRecord[]> {
  const records = await storedRecords();
  expect(records.length).toBeLessThanOrEqual(1);
  expect(deliveries().length).toBeLessThanOrEqual(1);
  expect(confirmations().length).toBeLessThanOrEqual(1);
  // Nothing leaves before the request is stored.
  if (records.length === 0) {
    expect(deliveries()).toHaveLength(0);
    expect(confirmations()).toHaveLength(0);
  }
  for (const a of answers) {
    if (a.status === 201 || a.status === 202) {
      // A reply never claims more than the store holds.
      const record = records.find((r) => r.request_id === a.body.request_id);
      expect(record, `a ${a.body.status} reply for a request that is not stored`).toBeDefined();
      if (a.body.status === 'received') expect(record!.delivery.state).toBe('received');
      if (a.body.confirmation_email === 'sent') expect(record!.confirmation_email.state).toBe('sent');
    } else if (a.status === 503) {
      expect(a.body.type).toMatch(/#problem-store-unavailable$/);
      expect(a.retryAfter).toBe(String(STORE_RETRY_AFTER_SECONDS));
    } else {
      // Another submit with the key held its claim for the whole wait.
      expect(a.status).toBe(409);
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
  }
  return records;
}

/** The store heals; past any claim a failed invocation left, a retry with the key and one scheduled run finish the request. */
async function expectHealed(key: string): Promise<void> {
  proxy.heal();
  offsetMs = INVOCATION_MS + CLOCK_SKEW_MS;
  const retry = await submit(key);
  expect(retry.status, JSON.stringify(retry.body)).toBe(201);
  expect(retry.body.status).toBe('received');
  await doors.scheduled();
  const records = await storedRecords();
  expect(records).toHaveLength(1);
  expect(records[0]!.delivery.state).toBe('received');
  expect(records[0]!.confirmation_email.state).toBe('sent');
  expect(retry.body.request_id).toBe(records[0]!.request_id);
  // Delivered once, under the request's own id; one email. An unclear write was read back, not repeated.
  expect(deliveries().map((r) => r.headers['webhook-id'])).toEqual([records[0]!.request_id]);
  expect(confirmations()).toHaveLength(1);
  expect(messageId(confirmations()[0]!.raw)).toBeDefined();
}

const FAULTS: Array<[string, Fault]> = [
  ['503', { kind: 'status', status: 503 }],
  ['a dropped connection', { kind: 'drop' }],
  ['an answer lost after the write', { kind: 'drop-after' }],
  ['a success without ETag', { kind: 'no-etag' }],
];

/** Writing a due entry (`due/<time>/<kind>/<id>`), which the scheduled run lists. */
const dueWrite = (op: BlobsOperation) => op.method === 'PUT' && op.key.startsWith('due/');
/** The scheduled run's listing of what is due. */
const dueListing = (op: BlobsOperation) => op.method === 'GET' && op.key === '';

const POINTS = [
  { name: 'creating the key pointer', match: on.claim },
  { name: "writing the request's due entry", match: dueWrite },
  { name: 'storing the request', match: on.recordCreate },
  { name: 'recording an effect on the request', match: on.recordUpdate },
] as const;

describe.each(POINTS)('the store fails once on $name', ({ match }) => {
  it.each(FAULTS)('with %s: four submits of one key, one request, each effect once', async (_label, fault) => {
    proxy.inject({ match, fault, times: 1 });
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => submit(key)));
    expect(proxy.seen.some((op) => op.fault !== undefined)).toBe(true);
    expect(await expectInvariants(answers)).toHaveLength(1);
    await expectHealed(key);
  });
});

describe('the store fails on the scheduled run', () => {
  it.each(FAULTS.slice(0, 2))(
    'with %s on the due listing: the run gives up quietly, and the next one delivers what the submit left owed',
    async (_label, fault) => {
      const lines = captureLogLines();
      // The CRM refuses the first delivery: the request is left pending, owed to the schedule.
      crm.behave({ kind: 'status', status: 503 });
      const { waitUntil, settle } = afterReply();
      const answer = await submit(randomUUID(), { waitUntil });
      await settle();
      expect(answer.status).toBe(202);
      expect(answer.body.status).toBe('pending');
      crm.behave({ kind: 'status', status: 200, body: '{"ok":true}' });
      offsetMs = INVOCATION_MS + CLOCK_SKEW_MS;

      proxy.inject({ match: dueListing, fault });
      await expect(doors.scheduled()).resolves.toBeDefined();
      expect(proxy.seen.some((op) => dueListing(op) && op.fault !== undefined)).toBe(true);
      expect(lines.some((l) => l.entry['event'] === 'store_unavailable')).toBe(true);
      expect(deliveries()).toHaveLength(1);
      await expectInvariants([answer]);

      proxy.heal();
      await doors.scheduled();
      const records = await storedRecords();
      expect(records).toHaveLength(1);
      expect(records[0]!.delivery.state).toBe('received');
      expect(deliveries().map((r) => r.headers['webhook-id'])).toEqual([
        answer.body.request_id,
        answer.body.request_id,
      ]);
    },
  );
});

describe('a store outage during a submit', () => {
  it('is answered 503 without any effect, and the retry after it heals is one request', async () => {
    proxy.inject({ match: on.any, fault: { kind: 'status', status: 503 } });
    const key = randomUUID();
    const answer = await submit(key);
    expect(answer.status).toBe(503);
    expect(answer.body.type).toMatch(/#problem-store-unavailable$/);
    expect(await storedRecords()).toHaveLength(0);
    expect(deliveries()).toHaveLength(0);
    await expectHealed(key);
  });
});

// The parts of the next describe: the shipped function behind a fault proxy (tests/helpers/store-outage.ts).
import { useStoreOutage } from '../helpers/store-outage.ts';

// Through the function's default export, as a deploy runs it (moved from tests/e2e/store-faults.test.ts).
describe('the shipped function while the store refuses to claim keys', () => {
  const outage = useStoreOutage();

  it('answers four simultaneous submits of one key 503 store-unavailable with Retry-After and nothing sent, then one request once it heals', async () => {
    const { proxy, crm, on } = outage;
    proxy.inject({ match: on.claim, fault: { kind: 'status', status: 503 } });
    const key = outage.newKey();
    const during = await Promise.all(Array.from({ length: 4 }, () => outage.submit(key)));
    for (const res of during) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(outage.retryAfter);
      expect(((await res.json()) as { type: string }).type).toMatch(/#problem-store-unavailable$/);
    }
    // The function's own store calls met the fault: it runs behind the proxy.
    expect(proxy.seen.filter((op) => op.fault !== undefined).length).toBeGreaterThanOrEqual(4);
    await outage.fn.settle();
    expect(crm.requests).toHaveLength(0);
    expect(outage.confirmations()).toBe(0);

    proxy.heal();
    const retry = await outage.submit(key);
    expect(retry.status).toBe(201);
    const { status, request_id: id } = (await retry.json()) as { status: string; request_id: string };
    expect(status).toBe('received');
    await outage.fn.settle();
    expect(crm.requests.filter((r) => r.path === '/hook').map((r) => r.headers['webhook-id'])).toEqual([id]);
    expect(outage.confirmations()).toBe(1);
  });
});
