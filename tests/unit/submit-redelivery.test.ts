/**
 * Redelivery without the sender: the sweep delivers what the CRM refused once it heals, with
 * backoff, exactly once alongside the sender's own retries; one sweep per interval across
 * instances; failed after the maximum age, with one alert; expired key pointers and requests deleted.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SubmitDeps } from '../../src/proposal/submit/config.ts';
import { submitProposal } from '../../src/proposal/submit/index.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { runSweep, sweepIfDue } from '../../src/proposal/submit/sweep.ts';
import { rawStore, readAll } from '../helpers/blobs.ts';
import { OK, type CrmBehaviour, type RecordedRequest } from '../helpers/crm-server.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { freePort } from '../../scripts/free-port.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { movableClock, PARTNER, submitRequest, testSubmitDeps } from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
/** The submit pipeline's clock: the sweep's interval and backoff pass by moving it, not by sleeping. */
let clock = movableClock();
beforeEach(() => {
  clock = movableClock();
  parts.crm.behave(OK);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** Small interval and backoff so a test sees several sweeps in a second or two. */
const FAST = { REDELIVERY_INTERVAL_SECONDS: '0.2', REDELIVERY_BACKOFF_SECONDS: '0.3' };

function makeDeps(env: Record<string, string> = {}, store = parts.blobs.freshStore()): SubmitDeps {
  const values = {
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
    CRM_WEBHOOK_SECRET: parts.webhookSecret,
    CRM_TIMEOUT_MS: '300',
    SMTP_URL: parts.smtp.url,
    MAIL_FROM: 'no-reply@kestrel.example',
    // These tests count deliveries of many requests from one address, not the send limits.
    CONFIRMATION_LIMIT_PER_ADDRESS: '1000',
    CONFIRMATION_LIMIT_PER_DOMAIN: '1000',
    NOTIFY_LIMIT_PER_HOUR: '1000',
    ...FAST,
    ...env,
  };
  return testSubmitDeps(store, { env: values, now: () => clock.now() });
}

const okDeliveries = (requests: RecordedRequest[], since: number) =>
  requests.slice(since).map((r) => String(r.headers['webhook-id']));
const confirmations = () => mailsTo(parts.smtp.messages, 'ann@example.com');
const notices = () => mailsTo(parts.smtp.messages, PARTNER.email);
/** The request id in a message's text (quoted-printable soft line breaks undone). */
const requestIdOf = (raw: string) => /Request id: ([0-9a-f-]{36})/.exec(raw.replace(/=\r?\n/g, ''))?.[1];

async function records(deps: SubmitDeps): Promise<ProposalRecord[]> {
  return (await readAll(deps.store, 'requests/')) as ProposalRecord[];
}

/** Each step of the clock before the next sweep, as a busy site's invocations would come. */
const SWEEP_STEP_MS = 50;

/**
 * What the function does after every reply, as often as a busy site would call it, until `done`:
 * the clock moves a step between sweeps instead of the test sleeping. Returns how far it moved.
 */
async function sweepUntil(deps: SubmitDeps, done: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  for (let moved = 0; moved <= timeoutMs; moved += SWEEP_STEP_MS) {
    await sweepIfDue(deps);
    if (await done()) return moved;
    clock.offsetMs += SWEEP_STEP_MS;
  }
  throw new Error(`not done within ${timeoutMs} ms of the moved clock`);
}

const outages: Array<{ name: string; behaviour: CrmBehaviour; retryAfterMs?: number }> = [
  { name: '500', behaviour: { kind: 'status', status: 500 } },
  {
    name: '429 with Retry-After: 1',
    behaviour: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
    retryAfterMs: 1000,
  },
  { name: 'a hang past the timeout', behaviour: { kind: 'hang' } },
];

describe('the sweep delivers what the sender never retried', () => {
  it.each(outages)(
    'CRM $name, then healed: one record per request, one email, one notice',
    async ({ behaviour, retryAfterMs }) => {
      const deps = makeDeps();
      parts.crm.behave(behaviour);
      const keys: string[] = Array.from({ length: 3 }, () => randomUUID());
      const replies = await Promise.all(
        keys.map((key, i) => submitProposal(submitRequest({ company: `Company ${i}` }), key, deps)),
      );
      expect(replies.map((r) => r.status)).toEqual([202, 202, 202]);
      expect(confirmations()).toHaveLength(0);
      // Each pending request's notice went out at once, saying the CRM does not have it yet.
      expect(notices()).toHaveLength(3);

      // The CRM heals; the senders are gone. Other requests keep arriving and succeed.
      parts.crm.behave(OK);
      const healedAt = parts.crm.requests.length;
      const other = await submitProposal(submitRequest({ company: 'Other' }), randomUUID(), deps);
      expect(other.status).toBe(201);

      const policy = deps.redelivery;
      const took = await sweepUntil(
        deps,
        async () => (await records(deps)).every((r) => r.delivery.state === 'received'),
        10_000,
      );
      // Within the sweep interval plus one backoff step (at least the CRM's Retry-After), on the moved clock.
      expect(took).toBeLessThanOrEqual(
        policy.intervalMs + Math.max(policy.backoffBaseMs, retryAfterMs ?? 0) + SWEEP_STEP_MS,
      );

      const delivered = okDeliveries(parts.crm.requests, healedAt);
      const ids = replies.map((r) => (r.body as { request_id: string }).request_id);
      expect(delivered.sort()).toEqual([...ids, (other.body as { request_id: string }).request_id].sort());
      expect(
        confirmations()
          .map((m) => requestIdOf(m.raw))
          .sort(),
      ).toEqual([...ids, (other.body as { request_id: string }).request_id].sort());
      expect(notices()).toHaveLength(4);
      expect((await rawStore(deps.store).list({ prefix: 'open/' })).blobs).toHaveLength(0);

      // The sender's late retry replays the same request; nothing is sent again.
      const late = await submitProposal(submitRequest({ company: 'Company 0' }), keys[0]!, deps);
      expect(late.status).toBe(201);
      expect(late.headers?.['Idempotent-Replayed']).toBe('true');
      expect((late.body as { request_id: string }).request_id).toBe(ids[0]);
      await sweepIfDue(deps);
      expect(confirmations()).toHaveLength(4);
      expect(notices()).toHaveLength(4);
    },
  );

  it('connection refused, then a CRM listening: delivered once', async () => {
    const port = await freePort();
    const env = { CRM_WEBHOOK_URL: `http://127.0.0.1:${port}/crm` };
    const deps = makeDeps(env);
    const reply = await submitProposal(submitRequest(), randomUUID(), deps);
    expect(reply.status).toBe(202);
    const received: string[] = [];
    const server: Server = createServer((req, res) => {
      received.push(String(req.headers['webhook-id']));
      req.resume();
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      await sweepUntil(deps, async () => (await records(deps))[0]?.delivery.state === 'received', 5_000);
      expect(received).toHaveLength(1);
      expect(confirmations()).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('backs off per request: a sweep before next_attempt_at does not call the CRM', async () => {
    const deps = makeDeps({ REDELIVERY_BACKOFF_SECONDS: '60' });
    parts.crm.behave({ kind: 'status', status: 500 });
    await submitProposal(submitRequest(), randomUUID(), deps);
    const [record] = await records(deps);
    expect(record?.delivery.attempts).toBe(1);
    expect(
      Date.parse(record?.delivery.next_attempt_at ?? '') - Date.parse(record?.received_at ?? ''),
    ).toBeGreaterThanOrEqual(59_000);
    const before = parts.crm.requests.length;
    const report = await runSweep(deps);
    expect(report.requests).toEqual([{ request_id: record?.request_id, outcome: 'waiting' }]);
    expect(parts.crm.requests.length).toBe(before);

    // Once due, the next failure doubles the wait.
    const later = { ...deps, now: () => new Date(Date.parse(record!.delivery.next_attempt_at!) + 1) };
    await runSweep(later);
    const [again] = await records(deps);
    expect(again?.delivery.attempts).toBe(2);
    expect(
      Date.parse(again!.delivery.next_attempt_at!) - Date.parse(record!.delivery.next_attempt_at!),
    ).toBeGreaterThanOrEqual(119_000);
  });
});

describe('the sender retrying at the same moment as the sweep', () => {
  it(
    '12 rounds: one delivery, one confirmation, one notice per request, whoever wins',
    { timeout: 60_000 },
    async () => {
      const deps = makeDeps();
      const rounds = 12;
      const ids: string[] = [];
      for (let i = 0; i < rounds; i++) {
        parts.crm.behave({ kind: 'status', status: 503 });
        const key = randomUUID();
        const first = await submitProposal(submitRequest(), key, deps);
        ids.push((first.body as { request_id: string }).request_id);
        parts.crm.behave(OK);
        const healedAt = parts.crm.requests.length;
        // Past the backoff step (FAST: 0.3 s), so the sweep does try the CRM. One clock for both:
        // a sweep whose clock ran an hour ahead would rightly see the sender's lease as stale.
        clock.offsetMs += 350;
        const [retry] = await Promise.all([submitProposal(submitRequest(), key, deps), runSweep(deps)]);
        // The loser of the race waits for the winner (or answers 409, and a later retry replays).
        const settled = retry.status === 409 ? await submitProposal(submitRequest(), key, deps) : retry;
        expect(settled.status).toBe(201);
        expect(okDeliveries(parts.crm.requests, healedAt)).toEqual([ids.at(-1)]);
      }
      expect(
        confirmations()
          .map((m) => requestIdOf(m.raw))
          .sort(),
      ).toEqual([...ids].sort());
      expect(
        notices()
          .map((m) => requestIdOf(m.raw))
          .sort(),
      ).toEqual([...ids].sort());
    },
  );
});

describe('one sweep per interval across instances', () => {
  it('twenty concurrent invocations start one sweep, not twenty', async () => {
    const store = parts.blobs.freshStore();
    // Twenty "instances": separate deps objects on one store, as separate function instances are.
    const results = await Promise.all(
      Array.from({ length: 20 }, () => sweepIfDue(makeDeps({ REDELIVERY_INTERVAL_SECONDS: '60' }, store))),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    // Within the interval no further sweep starts; after it, one does.
    expect(await sweepIfDue(makeDeps({ REDELIVERY_INTERVAL_SECONDS: '60' }, store))).toBeNull();
    const later = {
      ...makeDeps({ REDELIVERY_INTERVAL_SECONDS: '60' }, store),
      now: () => new Date(Date.now() + 61_000),
    };
    expect(await sweepIfDue(later)).not.toBeNull();
  });
});

describe('after REDELIVERY_MAX_HOURS of refusals', () => {
  it('marks the request failed, alerts the sales team once, and a retry replays the failed answer', async () => {
    const deps = makeDeps({ REDELIVERY_MAX_HOURS: '0.0002', NOTIFY_EMAIL: 'sales@kestrel.example' });
    parts.crm.behave({ kind: 'status', status: 500 });
    const key = randomUUID();
    const first = await submitProposal(submitRequest(), key, deps);
    expect(first.status).toBe(202);
    const id = (first.body as { request_id: string }).request_id;
    await sweepUntil(deps, async () => (await records(deps))[0]?.delivery.state === 'failed', 5_000);
    const [record] = await records(deps);
    expect(record?.delivery).toMatchObject({ state: 'failed', last_error_kind: 'server-error' });
    expect(record?.alert).toMatchObject({ email: 'sent' });
    const sales = mailsTo(parts.smtp.messages, 'sales@kestrel.example');
    expect(sales).toHaveLength(2);
    expect(sales.filter((m) => /Action needed/.test(m.raw))).toHaveLength(1);
    expect(confirmations()).toHaveLength(0);
    expect((await rawStore(deps.store).list({ prefix: 'open/' })).blobs).toHaveLength(0);

    const attempts = parts.crm.requests.length;
    await sweepIfDue({ ...deps, now: () => new Date(Date.now() + 3_600_000) });
    expect(parts.crm.requests.length).toBe(attempts);
    const retry = await submitProposal(submitRequest(), key, deps);
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ status: 'failed', request_id: id });
    expect(mailsTo(parts.smtp.messages, 'sales@kestrel.example')).toHaveLength(2);
  });
});

describe('retention', () => {
  it('keeps one key pointer per key while its request is kept, and still completes an open request', async () => {
    const deps = makeDeps();
    await submitProposal(submitRequest(), randomUUID(), deps);
    parts.crm.behave({ kind: 'status', status: 500 });
    const open = await submitProposal(submitRequest({ company: 'Open' }), randomUUID(), deps);
    const openId = (open.body as { request_id: string }).request_id;
    parts.crm.behave(OK);

    const tomorrow = { ...deps, now: () => new Date(Date.now() + 25 * 3_600_000) };
    expect((await runSweep(tomorrow)).requests).toEqual([{ request_id: openId, outcome: 'delivered' }]);
    const later = await runSweep({ ...deps, now: () => new Date(Date.now() + 49 * 3_600_000) });
    expect(later.entriesDeleted).toBe(0);
    // keys/<hash>, no day: deleted with its request (RETENTION_DAYS unset: both stay).
    const pointers = (await rawStore(deps.store).list({ prefix: 'keys/' })).blobs.map((b) => b.key);
    expect(pointers).toHaveLength(2);
    for (const key of pointers) expect(key).toMatch(/^keys\/[0-9a-f]{64}$/);
    expect(await records(deps)).toHaveLength(2);
  });

  it('deletes requests older than RETENTION_DAYS with their pointers and markers, only when set', async () => {
    const deps = makeDeps({ RETENTION_DAYS: '30' });
    parts.crm.behave({ kind: 'status', status: 500 });
    await submitProposal(submitRequest(), randomUUID(), deps);
    parts.crm.behave(OK);
    await submitProposal(submitRequest(), randomUUID(), deps);
    const in31Days = () => new Date(Date.now() + 31 * 24 * 3_600_000);
    const keep = await runSweep({
      ...makeDeps({}, deps.store),
      now: in31Days,
      crm: { name: 'webhook', deliver: async () => ({ ok: false, kind: 'server-error' }) },
    });
    expect(keep.requestsDeleted).toBe(0);
    const report = await runSweep({
      ...deps,
      now: in31Days,
      crm: { name: 'webhook', deliver: async () => ({ ok: false, kind: 'server-error' }) },
    });
    expect(report.requestsDeleted).toBe(2);
    const { blobs } = await rawStore(deps.store).list();
    expect(blobs.map((b) => b.key)).toEqual([]);
  });
});
