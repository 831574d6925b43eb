/**
 * The observations of issue 36, each as it was tried by an operator, in-process: an in-memory Blobs
 * API, the loopback CRM, SMTP and chat stand-ins, and a clock the test moves. Each failed before the
 * owed-work engine (the closing note of the issue has the failures).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../src/proposal/config.ts';
import { answerConsent } from '../../src/proposal/consent/answer.ts';
import { linkToken } from '../../src/proposal/notify/links.ts';
import type { CrmAdapter } from '../../src/proposal/submit/crm.ts';
import type { CrmBehaviour } from '../helpers/crm-server.ts';
import type { JobRecord } from '../../src/proposal/work/jobs.ts';
import { StoreUnavailable, type ProposalsStore } from '../../src/proposal/store/blobs.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { memoryBlobs } from '../helpers/memory-blobs.ts';
import { captureLogLines, type LogLine } from '../helpers/log-lines.ts';
import { freePort } from '../../scripts/free-port.ts';
import { envOf, invocation, movableClock, submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

const FACTOR = 0.05;
const MINUTE = 60_000;
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
  const envOfWorld = (extra: Record<string, string> = {}) => ({
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
    CRM_WEBHOOK_SECRET: parts.webhookSecret,
    CRM_TIMEOUT_MS: '1000',
    SMTP_URL: parts.smtp.url,
    MAIL_FROM: 'no-reply@kestrel.example',
    NOTIFY_EMAIL: 'sales@kestrel.example',
    NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook`,
    ...env,
    ...extra,
  });
  /** An invocation's context: made when it starts, so its claims end with it. */
  const deps = (extra: Record<string, string> = {}): Ctx =>
    testCtx(store, { env: envOfWorld(extra), now: clock.now, mono: clock.monotonic });
  return { store, clock, deps, env: envOfWorld };
}

function raw(store: ProposalsStore, prefix: string) {
  return [...(memory.stores.get(store.name)?.entries() ?? [])]
    .filter(([key]) => key.startsWith(prefix))
    .map(([key, { body }]) => ({ key, value: JSON.parse(body) as unknown }));
}
const records = (store: ProposalsStore) => raw(store, 'requests/').map((r) => r.value as ProposalRecord);
const salesMails = () => mailsTo(parts.smtp.messages, 'sales@kestrel.example');
const idOf = (reply: { body: unknown }) => (reply.body as { request_id: string }).request_id;

/** A scheduled run every `stepMs` for `totalMs`, the clock moving with them; each run a new invocation. */
async function sweepFor(clock: ReturnType<typeof movableClock>, deps: Ctx, totalMs: number, stepMs = MINUTE) {
  for (let t = 0; t < totalMs; t += stepMs) {
    clock.offsetMs += stepMs;
    await runScheduled(invocation(deps));
  }
}
/** A submit as its own invocation, made now. */
const submitNow = (ctx: Ctx, key: string, email?: string) =>
  submit(invocation(ctx), submitRequest(email === undefined ? {} : { email }), key, { inUseWaitMs: 300 });

describe('issue 36', () => {
  it('observation 1: a 20-minute SMTP outage still delivers every confirmation and notice', async () => {
    const w = world();
    const down = w.deps({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    parts.chat.behave({ kind: 'status', status: 503 });
    const emails = ['a1@example.com', 'a2@example.com', 'a3@example.com'];
    for (const email of emails) {
      expect((await submitNow(down, randomUUID(), email)).status).toBe(201);
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
      // The first attempt: its pointer and its address count land, then the store fails.
      if (phase === 'first' && !blob.startsWith('keys/') && !blob.startsWith('windows/')) {
        throw new StoreUnavailable('write', 'server-error');
      }
      // The retry: a scheduled run comes between its due entry and its record.
      if (phase === 'retry' && blob.startsWith('requests/') && 'ifNew' in condition) {
        phase = 'done';
        await runScheduled(invocation(deps));
      }
      return inner(blob, value, condition);
    };
    expect((await submitNow(deps, key)).status).toBe(503);
    w.clock.offsetMs += 10 * MINUTE;
    phase = 'retry';
    expect((await submitNow(deps, key)).status).toBe(202);
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
    const at = (ms: number): Ctx => ({ ...w.deps(), now: () => new Date(ms) });
    const key = randomUUID();
    // The instance whose clock runs ahead answers first; the one behind it comes 300 ms later by its own clock.
    const first = await submit(at(midnight + 150), submitRequest(), key);
    const second = await submit(at(midnight - 150), submitRequest(), key);
    expect(idOf(second)).toBe(idOf(first));
    expect(records(w.store)).toHaveLength(1);
    expect(new Set(parts.crm.requests.map((r) => String(r.headers['webhook-id']))).size).toBe(1);
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
  });

  it('observation 4: RETENTION_DAYS=1 and the CRM down for 30 hours: the request is kept, delivered, and the setting refused by name', async () => {
    const w = world({ RETENTION_DAYS: '1' });
    const deps = w.deps();
    parts.crm.behave({ kind: 'status', status: 503 });
    const reply = await submitNow(deps, randomUUID());
    expect(reply.status).toBe(202);
    await sweepFor(w.clock, deps, 30 * 60 * MINUTE, 60 * MINUTE);
    expect(records(w.store)).toHaveLength(1);
    parts.crm.behave({ kind: 'status', status: 200 });
    await sweepFor(w.clock, deps, 2 * 60 * MINUTE, 30 * MINUTE);
    expect(records(w.store)[0]?.delivery.state).toBe('received');
    expect(parts.crm.requests.at(-1)?.headers['webhook-id']).toBe(idOf(reply));
    // Refused by name: the instance logs each problem its configuration has (actions/pipeline.ts createIntake).
    const problems = JSON.stringify(readConfig(envOf(w.env())).problems);
    expect(problems).toMatch(/"variable":"RETENTION_DAYS".*REDELIVERY_MAX_HOURS/);
  });

  it('observation 5: counting that outlasts the claim lets no second owner send the confirmation', async () => {
    const w = world();
    const deps = w.deps();
    const inner = w.store.writeIf.bind(w.store);
    let counts = 0;
    w.store.writeIf = async (blob, value, condition) => {
      const version = await inner(blob, value, condition);
      // The owner's count of the site's confirmations (after the address count) answers after its claim ran out.
      if (/^windows\//.test(blob) && ++counts === 2) {
        w.clock.offsetMs += 5 * MINUTE;
        await runScheduled(invocation(deps));
      }
      return version;
    };
    await submitNow(deps, randomUUID());
    w.store.writeIf = inner;
    await sweepFor(w.clock, deps, 10 * MINUTE);
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
    expect(salesMails()).toHaveLength(1);
  });

  it('observation 7: an unreadable record is an error (503 with the request id, the scheduled run leaves its entry), never absent', async () => {
    const w = world();
    const deps = w.deps();
    const key = randomUUID();
    parts.crm.behave({ kind: 'status', status: 503 });
    const first = await submitNow(deps, key);
    const id = idOf(first);
    const blobs = memory.stores.get(w.store.name)!;
    blobs.set(`requests/${id}`, { etag: '"damaged"', body: '{"request_id":"x"}' });
    const again = await submitNow(deps, key);
    expect(again.status).toBe(503);
    expect((again.body as { request_id?: string }).request_id).toBe(id);
    w.clock.offsetMs += 2 * 24 * 60 * MINUTE;
    await runScheduled(invocation(deps));
    expect(raw(w.store, 'due/').map((m) => m.key.replace(/^due\/[^/]+\//, ''))).toEqual([`requests/${id}`]);
    expect(log.find((line) => line.entry['event'] === 'record_unreadable')?.level).toBe('error');
  });

  it('a scheduled run under another CRM never delivers a request accepted for the webhook, and says so', async () => {
    const w = world();
    parts.crm.behave({ kind: 'status', status: 503 });
    const reply = await submitNow(w.deps(), randomUUID());
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
    expect((await submitNow(dead, randomUUID())).status).toBe(201);
    await sweepFor(w.clock, dead, 60 * MINUTE, 5 * MINUTE);
    expect(records(w.store)[0]?.confirmation_email.state).toBe('not_sent');
    await sweepFor(w.clock, dead, 2 * 60 * MINUTE, 10 * MINUTE);
    const [record] = records(w.store);
    expect(record?.confirmation_email.state).toBe('failed');
    // The alert goes by chat, which is up.
    expect(record?.alert).toMatchObject({ chat: 'sent' });
    expect(parts.chat.requests.some((r) => /Action needed.*confirmation email/.test(r.body))).toBe(true);
  });
});

describe('an owner that crashed', () => {
  it('is taken over within a claim and a minute, even when a run met its due entry before its record', async () => {
    const w = world();
    const deps = w.deps();
    const inner = w.store.writeIf.bind(w.store);
    let crashed = false;
    let met = false;
    w.store.writeIf = async (blob, value, condition) => {
      if (crashed) return new Promise<never>(() => undefined);
      const version = await inner(blob, value, condition);
      // A scheduled run comes between the new request's due entry and its record.
      if (!met && blob.startsWith('due/') && 'ifNew' in condition) {
        met = true;
        w.clock.offsetMs += 1_000;
        const report = await runScheduled(invocation(deps));
        expect(report.due).toBe(1);
      }
      // The record is stored with its claim; then the invocation dies, before any effect.
      if (blob.startsWith('requests/') && 'ifNew' in condition) {
        crashed = true;
        return new Promise<never>(() => undefined);
      }
      return version;
    };
    void submitNow(deps, randomUUID());
    await vi.waitFor(() => expect(crashed).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    w.store.writeIf = inner;
    expect(parts.crm.requests).toHaveLength(0);
    // The claim lasts at most the invocation's minute; the skew and one scheduled interval after it, it is delivered.
    await sweepFor(w.clock, deps, 3 * MINUTE);
    expect(records(w.store)[0]?.delivery.state).toBe('received');
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
  });
});

/**
 * Issue 44, point 2: work that waits, or keeps failing, ahead of a newer lead must not keep that lead
 * from its CRM. Each case puts 100 items ahead of it, then the lead's delivery falls due: it is
 * delivered within two scheduled runs (Netlify's, 30 s each), and the runs read only what is due.
 */
describe('issue 44: nothing starves a newer lead', () => {
  /** netlify/functions/owed-work.mts: SCHEDULED_LIMIT_MS. */
  const SCHEDULED_LIMIT_MS = 30_000;
  const SECRET = 'starvation-test-consent-secret-of-32-characters';
  const AHEAD = 100;

  function crowd(env: Record<string, string> = {}) {
    const store = memory.store({ timeFactor: FACTOR });
    const clock = movableClock();
    const crm = { down: false, delivered: [] as string[] };
    const adapter: CrmAdapter = {
      name: 'webhook',
      deliver: async (payload, _signal, event) => {
        if (crm.down) return { ok: false, kind: 'server-error' };
        crm.delivered.push(event === undefined ? payload.request_id : `${payload.request_id}.${event}`);
        return { ok: true };
      },
      deleted: async (id) => {
        if (crm.down) return { ok: false, kind: 'server-error' };
        crm.delivered.push(`${id}.erased`);
        return { ok: true };
      },
    };
    const ctx = (limitMs = 60_000): Ctx =>
      testCtx(store, {
        env: {
          NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook`,
          // Every one of the hundred tells sales on its own: none goes to the hour's digest.
          NOTIFY_LIMIT_PER_HOUR: '1000',
          CONFIRMATION_LIMIT_PER_DAY: '1000',
          CONFIRMATION_LIMIT_PER_CLIENT: '1000',
          CONFIRMATION_LIMIT_PER_DOMAIN: '1000',
          ...env,
        },
        now: clock.now,
        mono: clock.monotonic,
        limitMs,
        crm: adapter,
        mailer: { send: async () => 'sent' },
      });
    const send = async (i: number | 'lead') => {
      const email = i === 'lead' ? 'lead@lead.example' : `p${i}@crowd${i}.example`;
      return idOf(await submit(ctx(), submitRequest({ email }), randomUUID()));
    };
    /** The newer lead: stored while the CRM blinked, then the CRM is back. */
    const blinkedLead = async (before?: (id: string) => Promise<void>) => {
      crm.down = true;
      const id = await send('lead');
      await before?.(id);
      crm.down = false;
      return id;
    };
    /** Scheduled runs, a minute apart from when the lead's delivery is due, until it is delivered: how many it took. */
    const runsUntilDelivered = async (id: string) => {
      const record = records(store).find((r) => r.request_id === id)!;
      clock.offsetMs += Date.parse(record.work!['crm']!.next_at!) + 1 - clock.now().getTime();
      const reports = [];
      for (let run = 1; run <= 5; run++) {
        reports.push(await runScheduled(ctx(SCHEDULED_LIMIT_MS)));
        if (crm.delivered.includes(id)) return { runs: run, reports };
        clock.offsetMs += MINUTE;
      }
      return { runs: Infinity, reports };
    };
    return { store, clock, crm, ctx, send, blinkedLead, runsUntilDelivered };
  }

  it('100 requests held for confirmation (strict mode), then a lead confirmed while the CRM blinked', async () => {
    const c = crowd({ CONSENT_CONFIRMATION: 'required', CONSENT_SECRET: SECRET });
    for (let i = 0; i < AHEAD; i++) await c.send(i);
    expect(records(c.store).filter((r) => r.hold !== undefined)).toHaveLength(AHEAD);
    const lead = await c.blinkedLead(async (id) => {
      const reply = await answerConsent(c.ctx(), 'confirm_request', {
        action: 'confirm_request',
        request_id: id,
        token: linkToken(SECRET, id, 'confirm'),
      });
      expect(reply.body).toMatchObject({ status: 'confirmed' });
    });
    const { runs, reports } = await c.runsUntilDelivered(lead);
    expect(runs).toBeLessThanOrEqual(2);
    // The held requests wait for tomorrow: no run reads them.
    for (const report of reports) expect(report.due).toBeLessThanOrEqual(2);
    expect(records(c.store).filter((r) => r.hold !== undefined)).toHaveLength(AHEAD);
  });

  /** The chat's outage as the runs meet it: refusing at once, or answering nothing within a post's bound. */
  const outages: Array<{ name: string; chat: CrmBehaviour }> = [
    { name: 'answering 503', chat: { kind: 'status', status: 503 } },
    { name: 'answering nothing', chat: { kind: 'hang' } },
  ];

  it.each(outages)(
    '100 "Not me" erasures owing sales a chat message, the chat $name, then a lead the CRM blinked on',
    { timeout: 120_000 },
    async ({ chat }) => {
      parts.chat.behave({ kind: 'status', status: 503 });
      const c = crowd({ CONSENT_SECRET: SECRET });
      for (let i = 0; i < AHEAD; i++) {
        const id = await c.send(i);
        const reply = await answerConsent(c.ctx(), 'deny_request', {
          action: 'deny_request',
          request_id: id,
          token: linkToken(SECRET, id, 'deny'),
        });
        expect(reply.body).toMatchObject({ status: 'erased' });
      }
      const jobs = raw(c.store, 'jobs/').map((j) => j.value as JobRecord);
      expect(jobs.filter((j) => j.kind === 'erasure' && j.message.chat === 'owed')).toHaveLength(AHEAD);
      c.clock.offsetMs += 1_000;
      const lead = await c.blinkedLead();
      parts.chat.behave(chat);
      const { runs, reports } = await c.runsUntilDelivered(lead);
      expect(runs).toBeLessThanOrEqual(2);
      // They were due, and ahead of it.
      expect(reports[0]!.due).toBeGreaterThan(AHEAD);
    },
  );

  it.each(outages)(
    '100 ordinary requests owing a chat notice, the chat $name, then a lead the CRM blinked on',
    { timeout: 120_000 },
    async ({ chat }) => {
      parts.chat.behave({ kind: 'status', status: 503 });
      const c = crowd();
      for (let i = 0; i < AHEAD; i++) await c.send(i);
      expect(records(c.store).filter((r) => r.notification.chat === 'owed')).toHaveLength(AHEAD);
      c.clock.offsetMs += 1_000;
      const lead = await c.blinkedLead();
      parts.chat.behave(chat);
      const { runs, reports } = await c.runsUntilDelivered(lead);
      expect(runs).toBeLessThanOrEqual(2);
      expect(reports[0]!.due).toBeGreaterThan(AHEAD);
    },
  );
});
