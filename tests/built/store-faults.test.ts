/**
 * Exactly once when the real local Blobs server fails (the logic's full matrix, every write of a
 * submit, is in-process: tests/unit/submit-store-faults.test.ts). The handler runs in-process behind
 * a proxy that fails one write of a kind once (5xx, a dropped connection before or after it lands,
 * a success without ETag) while four submits with one Idempotency-Key arrive at once: one stored
 * request, one CRM delivery, one confirmation email, and no reply claiming what the store does not
 * hold. A whole outage is answered 503 with nothing sent; after it, one request.
 */
import { randomUUID } from 'node:crypto';
import { getStore, setEnvironmentContext } from '@netlify/blobs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import knowledgeJson from '../../.generated/knowledge.json' with { type: 'json' };
import * as validators from '../../.generated/validators.mjs';
import { createProposalHandler } from '../../src/proposal/http/handler.ts';
import { createActionPipeline, type InvocationContext } from '../../src/proposal/actions/pipeline.ts';
import { readEnv } from '../../src/contract/http.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import { leaseMs } from '../../src/proposal/store/limits.ts';
import { leaseTerms } from '../../src/proposal/submit/owed-work.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../../src/contract/idempotency-rules.ts';
import { submitDepsFromEnv } from '../../src/proposal/submit/config.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { runSweep } from '../../src/proposal/submit/sweep.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { on, startBlobsFaultProxy, type BlobsFaultProxy, type Fault } from '../helpers/blobs-fault-proxy.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { headerLines, mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { newWebhookSecret, submitRequest } from '../helpers/submit-fixtures.ts';

const k = knowledgeJson as Knowledge;
const API = 'http://127.0.0.1/api/proposal';
const SENDER = submitRequest().email;
const CONCURRENT = 4;

let blobs: TestBlobs;
let proxy: BlobsFaultProxy;
let crm: TestCrmServer;
let smtp: TestSmtp;
let siteID: string;
/** The handler's clock: moved past the lease instead of waiting for it. */
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const handle = createProposalHandler(k, createActionPipeline(k, validators, { now, inUseWaitMs: 300 }));

beforeAll(async () => {
  [blobs, crm, smtp] = await Promise.all([startBlobs(), startCrmServer(), startSmtp()]);
  proxy = await startBlobsFaultProxy(blobs.url);
  Object.assign(process.env, {
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${crm.url}/crm`,
    CRM_WEBHOOK_SECRET: newWebhookSecret(),
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
  });
});
afterAll(async () => {
  for (const name of ['CRM_PROVIDER', 'CRM_WEBHOOK_URL', 'CRM_WEBHOOK_SECRET', 'SMTP_URL', 'MAIL_FROM'])
    delete process.env[name];
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
  smtp.messages.length = 0;
  offsetMs = 0;
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { status?: string; request_id?: string; confirmation_email?: string; type?: string };
}

async function submit(key: string, context?: InvocationContext): Promise<Answer> {
  const res = await handle(
    new Request(API, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(submitRequest()),
    }),
    context,
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
      // Another submit with the key held its lease for the whole wait.
      expect(a.status).toBe(409);
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
  }
  return records;
}

/** The store heals; past a lease, a retry with the key and one sweep finish the request. */
async function expectHealed(key: string): Promise<void> {
  proxy.heal();
  const deps = { ...submitDepsFromEnv(readEnv, partner(), k.consent), now };
  offsetMs = leaseMs(1, leaseTerms(deps).effectMs) + 1_000;
  const retry = await submit(key);
  expect(retry.status, JSON.stringify(retry.body)).toBe(201);
  expect(retry.body.status).toBe('received');
  await runSweep(deps);
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

function partner() {
  return {
    name: k.partner.name,
    describedAs: k.partner.described_as,
    email: k.partner.email,
    proposalUrl: k.urls.proposal_page,
  };
}

const FAULTS: Array<[string, Fault]> = [
  ['503', { kind: 'status', status: 503 }],
  ['a dropped connection', { kind: 'drop' }],
  ['an answer lost after the write', { kind: 'drop-after' }],
  ['a success without ETag', { kind: 'no-etag' }],
];

const POINTS = [
  { name: 'creating the key pointer', match: on.claim },
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

describe('the store fails on the sweep lock', () => {
  it.each(FAULTS.slice(0, 1))(
    'with %s: the submit is answered as usual and the sweep gives up quietly',
    async (_label, fault) => {
      proxy.inject({ match: on.lock, fault });
      const sweeps: Promise<unknown>[] = [];
      const answer = await submit(randomUUID(), { waitUntil: (p) => sweeps.push(p) });
      expect(answer.status).toBe(201);
      await Promise.all(sweeps);
      expect(proxy.seen.some((op) => op.key === 'sweep/lock' && op.fault !== undefined)).toBe(true);
      await expectInvariants([answer]);
      expect(deliveries()).toHaveLength(1);
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
