/**
 * The observations of issue 36, each as it was tried by an operator, in-process: an in-memory Blobs
 * API, the loopback CRM, SMTP and chat stand-ins, and a clock the test moves. Each failed before the
 * owed-work engine (the closing note of the issue has the failures).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SubmitDeps } from '../../src/proposal/submit/config.ts';
import { submitProposal } from '../../src/proposal/submit/index.ts';
import { runSweep } from '../../src/proposal/submit/sweep.ts';
import { StoreUnavailable, type ProposalsStore } from '../../src/proposal/store/blobs.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { memoryBlobs } from '../helpers/memory-blobs.ts';
import { captureLogLines, logText, type LogLine } from '../helpers/log-lines.ts';
import { freePort } from '../../scripts/free-port.ts';
import { movableClock, submitRequest, testSubmitDeps } from '../helpers/submit-fixtures.ts';

const FACTOR = 0.05;
const MINUTE = 60_000;
const SWEEP = { maxRequests: 100, budgetMs: 10_000, concurrency: 4 };
const parts = useLoopbackParts();
const memory = memoryBlobs();

let log: LogLine[] = [];
beforeEach(() => {
  log = captureLogLines();
});
afterEach(() => {
  vi.restoreAllMocks();
  parts.crm.behave({ kind: 'status', status: 200, body: '{"ok":true}' });
});

function world(env: Record<string, string> = {}, store = memory.store({ timeFactor: FACTOR })) {
  const clock = movableClock();
  const deps = (extra: Record<string, string> = {}): SubmitDeps =>
    testSubmitDeps(store, {
      env: {
        CRM_PROVIDER: 'webhook',
        CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
        CRM_WEBHOOK_SECRET: parts.webhookSecret,
        SMTP_URL: parts.smtp.url,
        MAIL_FROM: 'no-reply@kestrel.example',
        NOTIFY_EMAIL: 'sales@kestrel.example',
        NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook`,
        ...env,
        ...extra,
      },
      crmTimeoutMs: 1_000,
      inUseWaitMs: 300,
      now: clock.now,
      monotonic: clock.monotonic,
    });
  return { store, clock, deps };
}

function raw(store: ProposalsStore, prefix: string) {
  return [...(memory.stores.get(store.name)?.entries() ?? [])]
    .filter(([key]) => key.startsWith(prefix))
    .map(([key, { body }]) => ({ key, value: JSON.parse(body) as unknown }));
}
const records = (store: ProposalsStore) => raw(store, 'requests/').map((r) => r.value as ProposalRecord);
const salesMails = () => mailsTo(parts.smtp.messages, 'sales@kestrel.example');
const idOf = (reply: { body: unknown }) => (reply.body as { request_id: string }).request_id;

/** Sweeps every `stepMs` for `totalMs`, the clock moving with them. */
async function sweepFor(clock: ReturnType<typeof movableClock>, deps: SubmitDeps, totalMs: number, stepMs = MINUTE) {
  for (let t = 0; t < totalMs; t += stepMs) {
    clock.offsetMs += stepMs;
    await runSweep(deps, SWEEP);
  }
}

describe('issue 36', () => {
  it('observation 1: a 20-minute SMTP outage still delivers every confirmation and notice', async () => {
    const w = world();
    const down = w.deps({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    parts.chat.behave({ kind: 'status', status: 503 });
    const emails = ['a1@example.com', 'a2@example.com', 'a3@example.com'];
    for (const email of emails) {
      expect((await submitProposal(submitRequest({ email }), randomUUID(), down)).status).toBe(201);
    }
    await sweepFor(w.clock, down, 20 * MINUTE);
    parts.chat.behave({ kind: 'status', status: 200 });
    // Healed: the next attempts are due within the backoff's next step.
    await sweepFor(w.clock, w.deps(), 2 * 60 * MINUTE, 10 * MINUTE);
    for (const email of emails) expect(mailsTo(parts.smtp.messages, email)).toHaveLength(1);
    expect(salesMails()).toHaveLength(3);
    expect(parts.chat.requests.length).toBeGreaterThanOrEqual(3);
    for (const record of records(w.store)) {
      expect(record.confirmation_email.state).toBe('sent');
      expect(record.notification).toMatchObject({ email: 'sent', chat: 'sent' });
    }
  });

  it('observation 2: a sender retry whose marker a sweep meets before its record is never dropped', async () => {
    const w = world();
    const deps = w.deps();
    const key = randomUUID();
    parts.crm.behave({ kind: 'status', status: 503 });
    const inner = w.store.writeIf.bind(w.store);
    let phase: 'first' | 'retry' | 'done' = 'first';
    w.store.writeIf = async (blob, value, condition) => {
      // The first attempt: its pointer lands, then the store fails.
      if (phase === 'first' && !blob.startsWith('keys/') && !blob.startsWith('tallies/')) {
        throw new StoreUnavailable('write', 'server-error');
      }
      // The retry: a sweep runs between its open marker and its record.
      if (phase === 'retry' && blob.startsWith('requests/') && 'ifNew' in condition) {
        phase = 'done';
        await runSweep(deps, SWEEP);
      }
      return inner(blob, value, condition);
    };
    expect((await submitProposal(submitRequest(), key, deps)).status).toBe(503);
    w.clock.offsetMs += 10 * MINUTE;
    phase = 'retry';
    expect((await submitProposal(submitRequest(), key, deps)).status).toBe(202);
    w.store.writeIf = inner;
    parts.crm.behave({ kind: 'status', status: 200 });
    await sweepFor(w.clock, deps, 60 * MINUTE, 5 * MINUTE);

    const [record] = records(w.store);
    expect(record?.delivery.state).toBe('received');
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
  });

  it('observation 3: two first submits of one key 300 ms apart across 00:00 UTC, on skewed clocks, get one request id', async () => {
    const w = world();
    const midnight = Date.parse('2026-11-29T00:00:00.000Z');
    const at = (ms: number) => ({ ...w.deps(), now: () => new Date(ms) });
    const key = randomUUID();
    // The instance whose clock runs ahead answers first; the one behind it comes 300 ms later by its own clock.
    const first = await submitProposal(submitRequest(), key, at(midnight + 150));
    const second = await submitProposal(submitRequest(), key, at(midnight - 150));
    expect(idOf(second)).toBe(idOf(first));
    expect(records(w.store)).toHaveLength(1);
    expect(new Set(parts.crm.requests.map((r) => String(r.headers['webhook-id']))).size).toBe(1);
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
  });

  it('observation 4: RETENTION_DAYS=1 and the CRM down for 30 hours: the request is kept, delivered, and the setting refused by name', async () => {
    const w = world({ RETENTION_DAYS: '1' });
    const deps = w.deps();
    parts.crm.behave({ kind: 'status', status: 503 });
    const reply = await submitProposal(submitRequest(), randomUUID(), deps);
    expect(reply.status).toBe(202);
    await sweepFor(w.clock, deps, 30 * 60 * MINUTE, 60 * MINUTE);
    expect(records(w.store)).toHaveLength(1);
    parts.crm.behave({ kind: 'status', status: 200 });
    await sweepFor(w.clock, deps, 2 * 60 * MINUTE, 30 * MINUTE);
    expect(records(w.store)[0]?.delivery.state).toBe('received');
    expect(parts.crm.requests.at(-1)?.headers['webhook-id']).toBe(idOf(reply));
    const logged = logText(log);
    expect(logged).toMatch(/"variable":"RETENTION_DAYS".*REDELIVERY_MAX_HOURS/);
  });

  it('observation 5: counting that outlasts the lease lets no second owner send the confirmation', async () => {
    const w = world();
    const deps = w.deps();
    const inner = w.store.writeIf.bind(w.store);
    let counts = 0;
    w.store.writeIf = async (blob, value, condition) => {
      const version = await inner(blob, value, condition);
      // The owner's count of the site's confirmations (after the address count) answers after its lease ran out.
      if (/^(tallies|windows)\//.test(blob) && ++counts === 2) {
        w.clock.offsetMs += 5 * MINUTE;
        await runSweep(deps, SWEEP);
      }
      return version;
    };
    await submitProposal(submitRequest(), randomUUID(), deps);
    w.store.writeIf = inner;
    await sweepFor(w.clock, deps, 10 * MINUTE);
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
    expect(salesMails()).toHaveLength(1);
  });

  it('observation 7: an unreadable record is an error (503 with the request id, the sweep leaves it), never absent', async () => {
    const w = world();
    const deps = w.deps();
    const key = randomUUID();
    parts.crm.behave({ kind: 'status', status: 503 });
    const first = await submitProposal(submitRequest(), key, deps);
    const id = idOf(first);
    const blobs = memory.stores.get(w.store.name)!;
    blobs.set(`requests/${id}`, { etag: '"damaged"', body: '{"request_id":"x"}' });
    const again = await submitProposal(submitRequest(), key, deps);
    expect(again.status).toBe(503);
    expect((again.body as { request_id?: string }).request_id).toBe(id);
    w.clock.offsetMs += 2 * 24 * 60 * MINUTE;
    await runSweep(deps, SWEEP);
    expect(raw(w.store, 'open/').map((m) => m.key)).toEqual([`open/${id}`]);
    expect(log.find((line) => line.entry['event'] === 'record_unreadable')?.level).toBe('error');
  });

  it('a sweep under another CRM never delivers a request accepted for the webhook, and says so', async () => {
    const w = world();
    parts.crm.behave({ kind: 'status', status: 503 });
    const reply = await submitProposal(submitRequest(), randomUUID(), w.deps());
    expect(reply.status).toBe(202);
    const attempts = parts.crm.requests.length;
    // A laptop without CRM_PROVIDER: the inbox adapter, which would mark it received without any CRM.
    await sweepFor(w.clock, w.deps({ CRM_PROVIDER: 'inbox' }), 10 * MINUTE);
    expect(records(w.store)[0]?.delivery).toMatchObject({ state: 'pending', crm: 'webhook' });
    expect(log.find((line) => line.entry['event'] === 'crm_not_accepted_here')?.level).toBe('error');
    parts.crm.behave({ kind: 'status', status: 200 });
    await sweepFor(w.clock, w.deps(), 60 * MINUTE, 10 * MINUTE);
    expect(records(w.store)[0]?.delivery.state).toBe('received');
    expect(parts.crm.requests.length).toBeGreaterThan(attempts);
  });

  it('a confirmation that cannot be sent for REDELIVERY_MAX_HOURS gives up by age, not by a count, and alerts sales', async () => {
    const w = world({ REDELIVERY_MAX_HOURS: '2' });
    const dead = w.deps({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    expect((await submitProposal(submitRequest(), randomUUID(), dead)).status).toBe(201);
    await sweepFor(w.clock, dead, 60 * MINUTE, 5 * MINUTE);
    expect(records(w.store)[0]?.confirmation_email.state).toBe('not_sent');
    await sweepFor(w.clock, dead, 2 * 60 * MINUTE, 10 * MINUTE);
    const [record] = records(w.store);
    expect(record?.confirmation_email.state).toBe('failed');
    // The alert goes by chat, which is up.
    expect(record?.alert).toMatchObject({ chat: 'sent' });
    expect(parts.chat.requests.some((r) => /needs a person/.test(r.body))).toBe(true);
  });
});
