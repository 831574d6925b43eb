/**
 * Exactly once on a slow and ambiguous store, in-process: the store's fetch is injected (an in-memory
 * Blobs API behind a fault injector), store times are scaled down by FACTOR and the clock is moved,
 * so every conditional write of a submit can fail before or after it lands in seconds. Invariants,
 * after the store heals: one request id per key, one CRM record per request (distinct webhook-ids,
 * and raw deliveries too: one fault at a time needs no repeat), exactly one confirmation email per
 * stored request, no key left busy, and no reply claiming what the store does not hold.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Reply } from '../../src/contract/http.ts';
import type { SubmitDeps } from '../../src/proposal/submit/config.ts';
import { submitProposal } from '../../src/proposal/submit/index.ts';
import { runSweep } from '../../src/proposal/submit/sweep.ts';
import { leaseTerms } from '../../src/proposal/submit/owed-work.ts';
import { leaseLeftMs, readVersioned } from '../../src/proposal/store/record-lease.ts';
import { leaseMs } from '../../src/proposal/store/limits.ts';
import { deleteLegacyPointers } from '../../src/proposal/store/retention.ts';
import type { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import { REQUESTS, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { faultyFetch, memoryBlobs, WRITE_FAULTS, type WriteFault } from '../helpers/memory-blobs.ts';
import { movableClock, submitRequest, testSubmitDeps } from '../helpers/submit-fixtures.ts';

/** Store bounds × FACTOR: one attempt 200 ms instead of 4 s. Fault delays are scaled alike. */
const FACTOR = 0.05;
const ATTEMPT_MS = 4_000 * FACTOR;
const SWEEP = { maxRequests: 100, budgetMs: 10_000, concurrency: 4, ignoreBackoff: true };

const parts = useLoopbackParts();
const memory = memoryBlobs();
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'info').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
  parts.crm.behave({ kind: 'status', status: 200, body: '{"ok":true}' });
});

interface World {
  deps: SubmitDeps;
  store: ProposalsStore;
  clock: ReturnType<typeof movableClock>;
  writes: { writes: number };
}

function world(plan: (n: number) => WriteFault | undefined = () => undefined, crmTimeoutMs = 1_000): World {
  const faulty = faultyFetch(memory.fetch, plan);
  const store = memory.store({ fetch: faulty.fetch, timeFactor: FACTOR });
  const clock = movableClock();
  const deps = testSubmitDeps(store, {
    env: {
      CRM_PROVIDER: 'webhook',
      CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
      CRM_WEBHOOK_SECRET: parts.webhookSecret,
      SMTP_URL: parts.smtp.url,
      MAIL_FROM: 'no-reply@kestrel.example',
    },
    crmTimeoutMs,
    inUseWaitMs: 300,
    now: clock.now,
    monotonic: clock.monotonic,
  });
  return { deps, store, clock, writes: faulty.state };
}

/** Blob names under `prefix` straight from memory, past the store under test. */
function stored(store: ProposalsStore, prefix: string): string[] {
  return [...(memory.stores.get(store.name)?.keys() ?? [])].filter((key) => key.startsWith(prefix));
}

async function records(store: ProposalsStore): Promise<ProposalRecord[]> {
  return Promise.all(
    stored(store, 'requests/').map(async (key) => (await readVersioned(store, REQUESTS, key.slice(9)))!.record),
  );
}

/** After the store heals: leases run out (the clock moves past one), a retry and the sweep finish the work. */
async function heal(w: World, key: string, request = submitRequest()): Promise<Reply> {
  w.clock.offsetMs += leaseMs(FACTOR, leaseTerms(w.deps).effectMs) + 1_000;
  await runSweep(w.deps, SWEEP);
  const reply = await submitProposal(request, key, w.deps);
  await runSweep(w.deps, SWEEP);
  return reply;
}

const webhookIds = () => parts.crm.requests.map((r) => String(r.headers['webhook-id']));

/** The invariants of the issue, for the keys a test used, once the store healed. */
async function expectExactlyOnce(w: World, keys: number) {
  const all = await records(w.store);
  expect(stored(w.store, 'keys/')).toHaveLength(keys);
  expect(all).toHaveLength(keys);
  const ids = all.map((r) => r.request_id).sort();
  // One CRM record per request, as a receiver deduplicating by webhook-id keeps it, and no repeat at all.
  expect([...new Set(webhookIds())].sort()).toEqual(ids);
  expect(webhookIds()).toHaveLength(keys);
  for (const record of all) {
    expect(record.delivery.state).toBe('received');
    expect(record.confirmation_email.state).toBe('sent');
    expect(leaseLeftMs(record, w.deps.now())).toBe(0);
    expect(mailsTo(parts.smtp.messages, record.contact.email)).toHaveLength(1);
  }
  expect(stored(w.store, 'open/')).toEqual([]);
}

/** A reply never claims more than the store holds (read after the reply). */
async function expectTruthful(w: World, reply: Reply) {
  const body = reply.body as { request_id?: string; status?: string; confirmation_email?: string };
  if (body.request_id === undefined) return;
  const record = (await readVersioned(w.store, REQUESTS, body.request_id))?.record;
  if (body.status === 'received') expect(record?.delivery.state).toBe('received');
  if (body.confirmation_email === 'sent') expect(record?.confirmation_email.state).toBe('sent');
}

describe('a clean submit', () => {
  it('makes the conditional writes the fault loop goes through, and is received', async () => {
    const w = world();
    const reply = await submitProposal(submitRequest(), randomUUID(), w.deps);
    expect(reply.status).toBe(201);
    // The rows n = 1..11 of docs/operating.md's table "How a submit is stored".
    expect(w.writes.writes).toBe(11);
    await expectExactlyOnce(w, 1);
  });
});

describe('every conditional write of a submit failing, before and after it lands', () => {
  let writesOfASubmit = 0;
  it('counts the writes of one submit', async () => {
    const clean = world();
    await submitProposal(submitRequest(), randomUUID(), clean.deps);
    writesOfASubmit = clean.writes.writes;
    expect(writesOfASubmit).toBeGreaterThanOrEqual(6);
  });

  for (const fault of WRITE_FAULTS) {
    const name = typeof fault === 'string' ? fault : `answered after one attempt's timeout`;
    const late: WriteFault = typeof fault === 'string' ? fault : { lateMs: ATTEMPT_MS * 1.125 };
    it(`${name}, at write n = 1..N, with two submits of the key and a sweep at once`, async () => {
      for (let n = 1; n <= writesOfASubmit; n++) {
        parts.crm.requests.length = 0;
        parts.smtp.messages.length = 0;
        const w = world((i) => (i === n ? late : undefined));
        const key = randomUUID();
        const replies = await Promise.all([
          submitProposal(submitRequest(), key, w.deps),
          submitProposal(submitRequest(), key, w.deps),
          runSweep(w.deps, SWEEP).then(() => null),
        ]);
        for (const reply of replies) if (reply) await expectTruthful(w, reply);
        const after = await heal(w, key);
        expect(after.status, `fault ${name} at write ${n}`).toBe(201);
        await expectExactlyOnce(w, 1);
      }
    }, 120_000);
  }
});

describe('a slow store', () => {
  it('every write answered in 3.5 s, the CRM taking 3 s, the sender retrying every 8 s: one delivery, one email', async () => {
    parts.crm.behave({ kind: 'status', status: 200, body: '{}', delayMs: 3_000 * FACTOR });
    const w = world(() => ({ lateMs: 3_500 * FACTOR }), 8_000 * FACTOR);
    const key = randomUUID();
    const replies: Reply[] = [];
    const sender = (async () => {
      for (let i = 0; i < 12; i++) {
        const reply = submitProposal(submitRequest(), key, w.deps).then((r) => replies.push(r));
        await new Promise((resolve) => setTimeout(resolve, 8_000 * FACTOR));
        void reply;
      }
    })();
    await Promise.all([sender, runSweep(w.deps, SWEEP)]);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(replies.some((r) => r.status === 201)).toBe(true);
    for (const reply of replies) await expectTruthful(w, reply);
    await expectExactlyOnce(w, 1);
  }, 60_000);

  it('the slowest third of writes answered after one attempt’s timeout: submits still succeed', async () => {
    const w = world((n) => (n % 3 === 0 ? { lateMs: 4_500 * FACTOR } : undefined));
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        submitProposal(submitRequest({ email: `ann${i}@example.com` }), randomUUID(), w.deps),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    for (const reply of replies) await expectTruthful(w, reply);
    await expectExactlyOnce(w, 4);
  }, 60_000);
});

describe('concurrency', () => {
  it('four simultaneous submits of one key store one request (the pointer is created once)', async () => {
    const w = world();
    const key = randomUUID();
    const replies = await Promise.all(Array.from({ length: 4 }, () => submitProposal(submitRequest(), key, w.deps)));
    expect(new Set(replies.map((r) => (r.body as { request_id: string }).request_id)).size).toBe(1);
    await heal(w, key);
    await expectExactlyOnce(w, 1);
  });

  it('retries and a sweep at once on a pending request deliver it once (the lease is taken with If-Match)', async () => {
    const w = world();
    const key = randomUUID();
    parts.crm.behave({ kind: 'status', status: 503 });
    expect((await submitProposal(submitRequest(), key, w.deps)).status).toBe(202);
    parts.crm.requests.length = 0;
    parts.crm.behave({ kind: 'status', status: 200, body: '{}', delayMs: 100 });
    w.clock.offsetMs += 3_600_000;
    await Promise.all([
      submitProposal(submitRequest(), key, w.deps),
      submitProposal(submitRequest(), key, w.deps),
      runSweep(w.deps, SWEEP),
      runSweep(w.deps, SWEEP),
    ]);
    await heal(w, key);
    await expectExactlyOnce(w, 1);
  });

  it('an owner whose lease ran out while it paused does not call the CRM (the lease check)', async () => {
    const key = randomUUID();
    let paused = false;
    // Right after the write that stores the request lands, the owner "pauses" past its lease and the sweep takes over.
    const w = world();
    let takeOver: Promise<unknown> | undefined;
    const store = w.store;
    const inner = store.writeIf.bind(store);
    store.writeIf = async (key2, value, condition) => {
      const version = await inner(key2, value, condition);
      if (!paused && key2.startsWith('requests/') && 'ifNew' in condition) {
        paused = true;
        w.clock.offsetMs += leaseMs(FACTOR, leaseTerms(w.deps).effectMs) + 1_000;
        takeOver = runSweep(w.deps, SWEEP);
        await takeOver;
      }
      return version;
    };
    await submitProposal(submitRequest(), key, w.deps);
    await takeOver;
    store.writeIf = inner;
    await heal(w, key);
    await expectExactlyOnce(w, 1);
  });

  it('a key sent again with another body is refused (the fingerprint is compared)', async () => {
    const w = world();
    const key = randomUUID();
    expect((await submitProposal(submitRequest(), key, w.deps)).status).toBe(201);
    const reply = await submitProposal(submitRequest({ company: 'Other AG' }), key, w.deps);
    expect(reply.status).toBe(422);
    await expectExactlyOnce(w, 1);
  });
});

describe('the retention race', () => {
  it('a key reused after its 24 hours while the sweep deletes pointers keeps its new request', async () => {
    const w = world();
    const key = randomUUID();
    expect((await submitProposal(submitRequest(), key, w.deps)).status).toBe(201);
    w.clock.offsetMs += 49 * 3_600_000;
    const [reply] = await Promise.all([
      submitProposal(submitRequest({ company: 'Reused AG' }), key, w.deps),
      deleteLegacyPointers(w.store, w.deps.now()),
      runSweep(w.deps, SWEEP),
    ]);
    expect(reply.status).toBe(201);
    const id = (reply.body as { request_id: string }).request_id;
    await deleteLegacyPointers(w.store, w.deps.now());
    const again = await submitProposal(submitRequest({ company: 'Reused AG' }), key, w.deps);
    expect((again.body as { request_id: string }).request_id).toBe(id);
    expect(stored(w.store, 'keys/')).toHaveLength(1);
    expect(new Set(webhookIds()).size).toBe(2);
  });
});
