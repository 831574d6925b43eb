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
import type { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import { isProposalRecord, recordKey, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { claimFree, CLOCK_SKEW_MS } from '../../src/proposal/work/engine.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { faultyFetch, memoryBlobs, WRITE_FAULTS, type WriteFault } from '../helpers/memory-blobs.ts';
import { deletedBy, invocation, movableClock, submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

/** Store bounds × FACTOR: one attempt 200 ms instead of 4 s. Fault delays are scaled alike. */
const FACTOR = 0.05;
const ATTEMPT_MS = 4_000 * FACTOR;

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
  deps: Ctx;
  store: ProposalsStore;
  clock: ReturnType<typeof movableClock>;
  writes: { writes: number };
}

function world(plan: (n: number) => WriteFault | undefined = () => undefined, crmTimeoutMs = 1_000): World {
  const faulty = faultyFetch(memory.fetch, plan);
  const store = memory.store({ fetch: faulty.fetch, timeFactor: FACTOR });
  const clock = movableClock();
  const deps = testCtx(store, {
    env: {
      CRM_PROVIDER: 'webhook',
      CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
      CRM_WEBHOOK_SECRET: parts.webhookSecret,
      CRM_TIMEOUT_MS: String(crmTimeoutMs),
      SMTP_URL: parts.smtp.url,
      MAIL_FROM: 'no-reply@kestrel.example',
    },
    now: clock.now,
    mono: clock.monotonic,
  });
  return { deps, store, clock, writes: faulty.state };
}

/** A submit as an invocation of its own (a door's), starting now on the moved clock. */
const send = (w: World, key: string, request = submitRequest()) =>
  submit(invocation(w.deps), request, key, { inUseWaitMs: 300 });
/** A scheduled run as an invocation of its own; as \`npm run inbox -- redeliver\` runs it, backoff ignored. */
const run = (w: World) => runScheduled(invocation(w.deps), { ignoreBackoff: true });

/** Blob names under `prefix` straight from memory, past the store under test. */
function stored(store: ProposalsStore, prefix: string): string[] {
  return [...(memory.stores.get(store.name)?.keys() ?? [])].filter((key) => key.startsWith(prefix));
}

const readRecord = async (store: ProposalsStore, id: string) => {
  const value = (await store.read(recordKey(id)))?.value;
  return isProposalRecord(value) ? value : undefined;
};

async function records(store: ProposalsStore): Promise<ProposalRecord[]> {
  return Promise.all(stored(store, 'requests/').map(async (key) => (await readRecord(store, key.slice(9)))!));
}

/** After the store heals: claims run out (the clock moves past one, and its skew), a retry and a run finish the work. */
async function heal(w: World, key: string, request = submitRequest()): Promise<Reply> {
  w.clock.offsetMs += w.deps.limitMs + CLOCK_SKEW_MS + 1_000;
  await run(w);
  const reply = await send(w, key, request);
  await run(w);
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
    expect(claimFree(record, w.deps.now())).toBe(true);
    expect(mailsTo(parts.smtp.messages, record.contact.email)).toHaveLength(1);
  }
  expect(stored(w.store, 'due/')).toEqual([]);
}

/** A reply never claims more than the store holds (read after the reply). */
async function expectTruthful(w: World, reply: Reply) {
  const body = reply.body as { request_id?: string; status?: string; confirmation_email?: string };
  if (body.request_id === undefined) return;
  const record = await readRecord(w.store, body.request_id);
  if (body.status === 'received') expect(record?.delivery.state).toBe('received');
  if (body.confirmation_email === 'sent') expect(record?.confirmation_email.state).toBe('sent');
}

describe('a clean submit', () => {
  it('makes the conditional writes the fault loop goes through, and is received', async () => {
    const w = world();
    const reply = await send(w, randomUUID());
    expect(reply.status).toBe(201);
    // The rows n = 1..11 of docs/operating.md's table "How a submit is stored": the key's pointer, the
    // address's tally, the due entry, the record with its claim, the CRM's outcome, the domain's and the
    // site's confirmation tallies, the email's outcome, the hour's notice tally, the notice's outcome, the release.
    expect(w.writes.writes).toBe(11);
    await expectExactlyOnce(w, 1);
  });

  it('writes, in order: pointer, tally, due entry, record, then each step and the release', async () => {
    const written: string[] = [];
    // Every write and delete of the submit, named by what it stores (ids and hashes left out).
    const recording: typeof fetch = async (input, init) => {
      const method = (init?.method ?? 'GET').toUpperCase();
      if (method === 'PUT' || method === 'DELETE') {
        const key = decodeURIComponent(
          new URL(input instanceof Request ? input.url : input).pathname.split('/').slice(3).join('/'),
        );
        const headers = new Headers(init?.headers);
        const condition = headers.has('if-none-match') ? 'if-new' : headers.has('if-match') ? 'if-match' : '';
        written.push(
          `${method} ${key.replace(/[0-9a-f]{64}|[0-9a-f-]{36}|\d{4}-[\dT:.-]+Z/g, '…')} ${condition}`.trim(),
        );
      }
      return memory.fetch(input, init);
    };
    const store = memory.store({ fetch: recording, timeFactor: FACTOR });
    const w = { ...world(), store };
    w.deps = { ...w.deps, store };
    expect((await send(w, randomUUID())).status).toBe(201);
    expect(written).toEqual([
      'PUT keys/… if-new',
      'PUT windows/…/… if-new', // the address's requests of the day (signals.address_requests_24h)
      'PUT due/…/requests/… if-new',
      'PUT requests/… if-new', // the record, with its claim
      'PUT requests/… if-match', // crm: delivered
      'PUT windows/…/… if-new', // the recipient domain's confirmations of the day
      'PUT windows/…/… if-new', // the site's confirmations of the day
      'PUT requests/… if-match', // confirmation_email: sent
      'PUT windows/…/… if-new', // the hour's notices to sales
      'PUT requests/… if-match', // notice_email: sent
      'PUT requests/… if-match', // the release: claim given up, nothing due
      'DELETE due/…/requests/…',
    ]);
  });
});

describe('every conditional write of a submit failing, before and after it lands', () => {
  let writesOfASubmit = 0;
  it('counts the writes of one submit', async () => {
    const clean = world();
    await send(clean, randomUUID());
    writesOfASubmit = clean.writes.writes;
    expect(writesOfASubmit).toBeGreaterThanOrEqual(6);
  });

  for (const fault of WRITE_FAULTS) {
    const name = typeof fault === 'string' ? fault : `answered after one attempt's timeout`;
    const late: WriteFault = typeof fault === 'string' ? fault : { lateMs: ATTEMPT_MS * 1.125 };
    it(`${name}, at write n = 1..N, with two submits of the key and a scheduled run at once`, async () => {
      for (let n = 1; n <= writesOfASubmit; n++) {
        parts.crm.requests.length = 0;
        parts.smtp.messages.length = 0;
        const w = world((i) => (i === n ? late : undefined));
        const key = randomUUID();
        const replies = await Promise.all([send(w, key), send(w, key), run(w).then(() => null)]);
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
        const reply = send(w, key).then((r) => replies.push(r));
        await new Promise((resolve) => setTimeout(resolve, 8_000 * FACTOR));
        void reply;
      }
    })();
    await Promise.all([sender, run(w)]);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    // A submit that lost the record's creation to another left its due entry: the next run deletes it.
    await run(w);
    expect(replies.some((r) => r.status === 201)).toBe(true);
    for (const reply of replies) await expectTruthful(w, reply);
    await expectExactlyOnce(w, 1);
  }, 60_000);

  it('the slowest third of writes answered after one attempt’s timeout: submits still succeed', async () => {
    const w = world((n) => (n % 3 === 0 ? { lateMs: 4_500 * FACTOR } : undefined));
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) => send(w, randomUUID(), submitRequest({ email: `ann${i}@example.com` }))),
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
    const replies = await Promise.all(Array.from({ length: 4 }, () => send(w, key)));
    expect(new Set(replies.map((r) => (r.body as { request_id: string }).request_id)).size).toBe(1);
    await heal(w, key);
    await expectExactlyOnce(w, 1);
  });

  it('retries and scheduled runs at once on a pending request deliver it once (the claim is taken with If-Match)', async () => {
    const w = world();
    const key = randomUUID();
    parts.crm.behave({ kind: 'status', status: 503 });
    expect((await send(w, key)).status).toBe(202);
    parts.crm.requests.length = 0;
    parts.crm.behave({ kind: 'status', status: 200, body: '{}', delayMs: 100 });
    w.clock.offsetMs += 3_600_000;
    await Promise.all([send(w, key), send(w, key), run(w), run(w)]);
    await heal(w, key);
    await expectExactlyOnce(w, 1);
  });

  it('an owner whose claim ran out while it paused does not call the CRM (the check before each effect)', async () => {
    const key = randomUUID();
    let paused = false;
    // Right after the write that stores the request lands, the owner "pauses" past its claim and a scheduled run takes over.
    const w = world();
    let takeOver: Promise<unknown> | undefined;
    const store = w.store;
    const inner = store.writeIf.bind(store);
    store.writeIf = async (key2, value, condition) => {
      const version = await inner(key2, value, condition);
      if (!paused && key2.startsWith('requests/') && 'ifNew' in condition) {
        paused = true;
        w.clock.offsetMs += w.deps.limitMs + CLOCK_SKEW_MS + 1_000;
        takeOver = run(w);
        await takeOver;
      }
      return version;
    };
    await send(w, key);
    await takeOver;
    store.writeIf = inner;
    await heal(w, key);
    await expectExactlyOnce(w, 1);
  });

  it('a key sent again with another body is refused (the fingerprint is compared)', async () => {
    const w = world();
    const key = randomUUID();
    expect((await send(w, key)).status).toBe(201);
    const reply = await send(w, key, submitRequest({ company: 'Other AG' }));
    expect(reply.status).toBe(422);
    await expectExactlyOnce(w, 1);
  });
});

describe('the retention race', () => {
  it('a key reused after its 24 hours while retention deletes its old request keeps its new request', async () => {
    const w = world();
    // Retention at its shortest (a day, which needs redelivery to give up within it).
    const deps = testCtx(w.store, {
      env: { RETENTION_DAYS: '1', REDELIVERY_MAX_HOURS: '24' },
      now: w.clock.now,
      mono: w.clock.monotonic,
    });
    const key = randomUUID();
    expect((await send(w, key)).status).toBe(201);
    w.clock.offsetMs += 49 * 3_600_000;
    const [reply, report] = await Promise.all([
      send(w, key, submitRequest({ company: 'Reused AG' })),
      runScheduled(invocation(deps)),
    ]);
    expect(reply.status).toBe(201);
    expect(deletedBy(report, 'requests')).toBe(1);
    const id = (reply.body as { request_id: string }).request_id;
    await runScheduled(invocation(deps));
    const again = await send(w, key, submitRequest({ company: 'Reused AG' }));
    expect((again.body as { request_id: string }).request_id).toBe(id);
    expect(stored(w.store, 'keys/')).toHaveLength(1);
    expect(new Set(webhookIds()).size).toBe(2);
  });
});
