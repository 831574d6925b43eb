/**
 * Redelivery without the sender: the scheduled run (Netlify's clock, every minute) delivers what the
 * CRM refused once it heals, with backoff, exactly once alongside the sender's own retries and other
 * runs; failed after the maximum age, with one alert; expired requests deleted with their pointers.
 * On a quiet site, where no POST follows the first, every promise kept by time is kept by the run alone.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConsent } from '../../src/proposal/consent/answer.ts';
import { linkToken } from '../../src/proposal/notify/links.ts';
import { recordKey, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { erasureJobId, type JobRecord } from '../../src/proposal/work/jobs.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { rawStore, readAll } from '../helpers/blobs.ts';
import { OK, type CrmBehaviour, type RecordedRequest } from '../helpers/crm-server.ts';
import { captureLogLines, type LogLine } from '../helpers/log-lines.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { freePort } from '../../scripts/free-port.ts';
import { mailsTo, startSmtp } from '../helpers/smtp.ts';
import {
  deletedBy,
  invocation,
  movableClock,
  PARTNER,
  submit,
  submitRequest,
  testCtx,
} from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
/** The function's clock: the schedule's minutes and the backoff pass by moving it, not by sleeping. */
let clock = movableClock();
let log: LogLine[] = [];
beforeEach(() => {
  clock = movableClock();
  parts.crm.behave(OK);
  log = captureLogLines();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** netlify/functions/owed-work.mts: `* * * * *`. */
const SCHEDULED_EVERY_MS = 60_000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
/** A small backoff so a test sees a retry due at the next scheduled run. */
const FAST = { REDELIVERY_BACKOFF_SECONDS: '0.3' };
const SECRET = 'redelivery-test-consent-secret-of-32-characters';

function makeDeps(env: Record<string, string> = {}, store = parts.blobs.freshStore()): Ctx {
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
  return testCtx(store, { env: values, now: clock.now, mono: clock.monotonic });
}

/** A submit as an invocation of its own, starting now on the moved clock. */
const send = (deps: Ctx, request = submitRequest(), key: string = randomUUID()) =>
  submit(invocation(deps), request, key);
/** One scheduled run, as Netlify starts it: a new invocation. */
const run = (deps: Ctx, options?: { ignoreBackoff?: boolean }) => runScheduled(invocation(deps), options);

const okDeliveries = (requests: RecordedRequest[], since: number) =>
  requests.slice(since).map((r) => String(r.headers['webhook-id']));
const confirmations = () => mailsTo(parts.smtp.messages, 'ann@example.com');
const notices = () => mailsTo(parts.smtp.messages, PARTNER.email);
/** The request id in a message's text: the confirmation's "Reference: <id>", a notice's "Reference: request <id>". */
const requestIdOf = (raw: string) => /Reference: (?:request )?([0-9a-f-]{36})/.exec(raw.replace(/=\r?\n/g, ''))?.[1];
const idOf = (reply: { body: unknown }) => (reply.body as { request_id: string }).request_id;

async function records(deps: Ctx): Promise<ProposalRecord[]> {
  return (await readAll(deps.store, 'requests/')) as ProposalRecord[];
}
const record = async (deps: Ctx, id: string) =>
  (await rawStore(deps.store).get(recordKey(id), { type: 'json' })) as ProposalRecord | null;
const dueEntries = async (deps: Ctx) => (await rawStore(deps.store).list({ prefix: 'due/' })).blobs;

/**
 * The scheduled run, once a minute of the moved clock, until `done`: returns how far the clock moved
 * (0 when the run at once was enough).
 */
async function runUntil(deps: Ctx, done: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  for (let moved = 0; moved <= timeoutMs; moved += SCHEDULED_EVERY_MS) {
    await run(deps);
    if (await done()) return moved;
    clock.offsetMs += SCHEDULED_EVERY_MS;
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

describe('the scheduled run delivers what the sender never retried', () => {
  it.each(outages)(
    'CRM $name, then healed: one record per request, one email, one notice',
    async ({ behaviour, retryAfterMs }) => {
      const deps = makeDeps();
      parts.crm.behave(behaviour);
      const keys: string[] = Array.from({ length: 3 }, () => randomUUID());
      const replies = await Promise.all(
        keys.map((key, i) => send(deps, submitRequest({ company: `Company ${i}` }), key)),
      );
      expect(replies.map((r) => r.status)).toEqual([202, 202, 202]);
      expect(confirmations()).toHaveLength(0);
      // Each pending request's notice went out at once, saying the CRM does not have it yet.
      expect(notices()).toHaveLength(3);

      // The CRM heals; the senders are gone. Other requests keep arriving and succeed.
      parts.crm.behave(OK);
      const healedAt = parts.crm.requests.length;
      const other = await send(deps, submitRequest({ company: 'Other' }));
      expect(other.status).toBe(201);

      const took = await runUntil(
        deps,
        async () => (await records(deps)).every((r) => r.delivery.state === 'received'),
        10 * MINUTE,
      );
      // Within one backoff step (at least the CRM's Retry-After) and one scheduled interval, on the moved clock.
      expect(took).toBeLessThanOrEqual(Math.max(deps.retry.firstMs, retryAfterMs ?? 0) + SCHEDULED_EVERY_MS);

      const delivered = okDeliveries(parts.crm.requests, healedAt);
      const ids = replies.map(idOf);
      expect(delivered.sort()).toEqual([...ids, idOf(other)].sort());
      expect(
        confirmations()
          .map((m) => requestIdOf(m.raw))
          .sort(),
      ).toEqual([...ids, idOf(other)].sort());
      expect(notices()).toHaveLength(4);
      expect(await dueEntries(deps)).toHaveLength(0);

      // The sender's late retry replays the same request; nothing is sent again.
      const late = await send(deps, submitRequest({ company: 'Company 0' }), keys[0]);
      expect(late.status).toBe(201);
      expect(late.headers?.['Idempotent-Replayed']).toBe('true');
      expect(idOf(late)).toBe(ids[0]);
      await run(deps);
      expect(confirmations()).toHaveLength(4);
      expect(notices()).toHaveLength(4);
    },
  );

  it('connection refused, then a CRM listening: delivered once', async () => {
    const port = await freePort();
    const env = { CRM_WEBHOOK_URL: `http://127.0.0.1:${port}/crm` };
    const deps = makeDeps(env);
    const reply = await send(deps);
    expect(reply.status).toBe(202);
    const received: string[] = [];
    const server: Server = createServer((req, res) => {
      received.push(String(req.headers['webhook-id']));
      req.resume();
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      await runUntil(deps, async () => (await records(deps))[0]?.delivery.state === 'received', 5 * MINUTE);
      expect(received).toHaveLength(1);
      expect(confirmations()).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('backs off per request: a run before the next attempt does not call the CRM', async () => {
    const deps = makeDeps({ REDELIVERY_BACKOFF_SECONDS: '60' });
    parts.crm.behave({ kind: 'status', status: 500 });
    await send(deps);
    const [first] = await records(deps);
    const work = () => first!.work!['crm']!;
    expect(work().attempts).toBe(1);
    expect(Date.parse(work().next_at!) - Date.parse(first?.received_at ?? '')).toBeGreaterThanOrEqual(59_000);
    const before = parts.crm.requests.length;
    // Its due entry is at the next attempt: a run now finds nothing due.
    const report = await run(deps);
    expect(report).toMatchObject({ due: 0, done: 0 });
    expect(parts.crm.requests.length).toBe(before);

    // Once due, the next failure doubles the wait.
    clock.offsetMs += Date.parse(work().next_at!) + 1 - clock.now().getTime();
    await run(deps);
    const [again] = await records(deps);
    expect(again?.work?.['crm']?.attempts).toBe(2);
    expect(Date.parse(again!.work!['crm']!.next_at!) - Date.parse(work().next_at!)).toBeGreaterThanOrEqual(119_000);
  });
});

describe('the sender retrying at the same moment as the scheduled run', () => {
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
        const first = await send(deps, submitRequest(), key);
        ids.push(idOf(first));
        parts.crm.behave(OK);
        const healedAt = parts.crm.requests.length;
        // Past the backoff step (FAST: 0.3 s), so the run does try the CRM. One clock for both:
        // a run whose clock ran an hour ahead would rightly see the sender's claim as ended.
        clock.offsetMs += 350;
        const [retry] = await Promise.all([send(deps, submitRequest(), key), run(deps)]);
        // The loser of the race waits for the winner (or answers 409, and a later retry replays).
        const settled = retry.status === 409 ? await send(deps, submitRequest(), key) : retry;
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

describe('scheduled runs that overlap', () => {
  it('twenty runs at once (one slow instance, the next minute) deliver each due request once', async () => {
    const store = parts.blobs.freshStore();
    const deps = makeDeps({}, store);
    parts.crm.behave({ kind: 'status', status: 503 });
    const ids = (await Promise.all([0, 1, 2].map((i) => send(deps, submitRequest({ company: `C${i}` }))))).map(idOf);
    parts.crm.behave(OK);
    const healedAt = parts.crm.requests.length;
    clock.offsetMs += SCHEDULED_EVERY_MS;
    // Twenty "instances": contexts of their own on one store, as separate function instances are.
    const reports = await Promise.all(Array.from({ length: 20 }, () => run(makeDeps({}, store))));
    expect(okDeliveries(parts.crm.requests, healedAt).sort()).toEqual([...ids].sort());
    expect(reports.reduce((sum, r) => sum + r.done, 0)).toBe(3);
    expect(
      confirmations()
        .map((m) => requestIdOf(m.raw))
        .sort(),
    ).toEqual([...ids].sort());
    // A later run finds nothing left to do.
    clock.offsetMs += SCHEDULED_EVERY_MS;
    expect(await run(deps)).toMatchObject({ due: 0 });
  });
});

describe('after REDELIVERY_MAX_HOURS of refusals', () => {
  it('marks the request failed, alerts the sales team once, and a retry replays the failed answer', async () => {
    const deps = makeDeps({ REDELIVERY_MAX_HOURS: '0.0002', NOTIFY_EMAIL: 'sales@kestrel.example' });
    parts.crm.behave({ kind: 'status', status: 500 });
    const key = randomUUID();
    const first = await send(deps, submitRequest(), key);
    expect(first.status).toBe(202);
    const id = idOf(first);
    await runUntil(deps, async () => (await records(deps))[0]?.delivery.state === 'failed', 5 * MINUTE);
    const [failed] = await records(deps);
    expect(failed?.delivery).toMatchObject({ state: 'failed', last_error_kind: 'server-error' });
    expect(failed?.alert).toMatchObject({ email: 'sent' });
    const sales = mailsTo(parts.smtp.messages, 'sales@kestrel.example');
    expect(sales).toHaveLength(2);
    expect(sales.filter((m) => /Action needed/.test(m.raw))).toHaveLength(1);
    expect(confirmations()).toHaveLength(0);
    expect(await dueEntries(deps)).toHaveLength(0);

    const attempts = parts.crm.requests.length;
    clock.offsetMs += HOUR;
    await run(deps);
    expect(parts.crm.requests.length).toBe(attempts);
    const retry = await send(deps, submitRequest(), key);
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ status: 'failed', request_id: id });
    expect(mailsTo(parts.smtp.messages, 'sales@kestrel.example')).toHaveLength(2);
  });
});

describe('retention', () => {
  it('keeps one key pointer per key while its request is kept, and still completes a pending request', async () => {
    const deps = makeDeps();
    await send(deps);
    parts.crm.behave({ kind: 'status', status: 500 });
    const open = await send(deps, submitRequest({ company: 'Open' }));
    const openId = idOf(open);
    parts.crm.behave(OK);

    clock.offsetMs += 25 * HOUR;
    expect(await run(deps)).toMatchObject({ due: 1, done: 1, requests_deleted: 0 });
    expect((await record(deps, openId))?.delivery.state).toBe('received');
    clock.offsetMs += 24 * HOUR;
    const later = await run(deps);
    expect(deletedBy(later, 'requests')).toBe(0);
    // keys/<hash>, no day: deleted with its request (RETENTION_DAYS unset: 365 days, both stay).
    const pointers = (await rawStore(deps.store).list({ prefix: 'keys/' })).blobs.map((b) => b.key);
    expect(pointers).toHaveLength(2);
    for (const key of pointers) expect(key).toMatch(/^keys\/[0-9a-f]{64}$/);
    expect(await records(deps)).toHaveLength(2);
  });

  it('deletes requests older than RETENTION_DAYS with their pointers, entries and tallies, by its own setting', async () => {
    const deps = makeDeps({ RETENTION_DAYS: '30' });
    parts.crm.behave({ kind: 'status', status: 500 });
    await send(deps);
    parts.crm.behave(OK);
    await send(deps);
    clock.offsetMs += 31 * 24 * HOUR;
    const refusing = { crm: { name: 'webhook' as const, deliver: async () => ({ ok: false as const, kind: 'server-error' as const }) } }; // prettier-ignore
    // The default (365 days) keeps both.
    const keep = await run({ ...makeDeps({}, deps.store), ...refusing });
    expect(deletedBy(keep, 'requests')).toBe(0);
    // 30 days: the one delivered, and the one whose CRM delivery gave up (alerted) in this run.
    const report = await run({ ...deps, ...refusing });
    expect(deletedBy(report, 'requests')).toBe(2);
    const { blobs } = await rawStore(deps.store).list();
    expect(blobs.map((b) => b.key)).toEqual([]);
  });
});

describe('on a quiet site (no POST after the first), the scheduled run alone', () => {
  /** Runs once a minute from now until `until` on the moved clock (ms from now), `check` after each. */
  async function runsFor(deps: Ctx, untilMs: number, check: (at: number) => Promise<void> = async () => {}) {
    for (let t = 0; t <= untilMs; t += SCHEDULED_EVERY_MS) {
      await run(deps);
      await check(clock.now().getTime());
      clock.offsetMs += SCHEDULED_EVERY_MS;
    }
  }

  it('delivers a pending request once the CRM heals, sends its confirmation and tells sales', async () => {
    // CRM, mail and chat all down when the request comes: nothing but the store has it.
    const smtpPort = await freePort();
    const deps = makeDeps({
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook`,
      REDELIVERY_BACKOFF_SECONDS: '60',
    });
    parts.crm.behave({ kind: 'status', status: 503 });
    parts.chat.behave({ kind: 'status', status: 500 });
    const reply = await send(deps);
    expect(reply.status).toBe(202);
    const id = idOf(reply);
    await runsFor(deps, 10 * MINUTE);
    expect((await record(deps, id))?.delivery.state).toBe('pending');

    // Everything heals at once; nobody posts again.
    parts.crm.behave(OK);
    parts.chat.behave(OK);
    const smtp = await startSmtp({ port: smtpPort });
    try {
      const owed = (await record(deps, id))!.work!;
      const latest = Math.max(...Object.values(owed).map((w) => Date.parse(w.next_at!)));
      let doneAt: number | undefined;
      await runsFor(deps, 90 * MINUTE, async (at) => {
        const r = await record(deps, id);
        if (doneAt === undefined && r?.delivery.state === 'received' && r.notification.chat === 'sent') doneAt = at;
      });
      const stored = await record(deps, id);
      expect(stored?.delivery.state).toBe('received');
      expect(stored?.confirmation_email.state).toBe('sent');
      expect(stored?.notification).toMatchObject({ email: 'sent', chat: 'sent' });
      // Each within one scheduled interval of its next attempt.
      expect(doneAt).toBeLessThanOrEqual(latest + SCHEDULED_EVERY_MS);
      expect(okDeliveries(parts.crm.requests, 0).filter((w) => w === id).length).toBeGreaterThanOrEqual(2);
      expect(mailsTo(smtp.messages, 'ann@example.com')).toHaveLength(1);
      expect(mailsTo(smtp.messages, PARTNER.email)).toHaveLength(1);
      expect(parts.chat.requests.filter((r) => r.body.includes('New proposal request')).length).toBeGreaterThan(0);
    } finally {
      await smtp.stop();
    }
  });

  it('alerts sales at the first run after REDELIVERY_MAX_HOURS, once', async () => {
    const deps = makeDeps({
      REDELIVERY_MAX_HOURS: '2',
      REDELIVERY_BACKOFF_SECONDS: '60',
      NOTIFY_EMAIL: 'sales@kestrel.example',
    });
    parts.crm.behave({ kind: 'status', status: 503 });
    const started = clock.now().getTime();
    const reply = await send(deps);
    const alerts = () =>
      mailsTo(parts.smtp.messages, 'sales@kestrel.example').filter((m) => /Action needed/.test(m.raw));
    let alertedAt: number | undefined;
    await runsFor(deps, 3 * HOUR, async (at) => {
      if (alertedAt === undefined && alerts().length > 0) alertedAt = at;
    });
    expect(alertedAt).toBeGreaterThanOrEqual(started + 2 * HOUR);
    expect(alertedAt).toBeLessThanOrEqual(started + 2 * HOUR + SCHEDULED_EVERY_MS);
    expect(alerts()).toHaveLength(1);
    expect((await record(deps, idOf(reply)))?.delivery.state).toBe('failed');
  });

  it("sends the hour's digest at the first run after its hour, not before", async () => {
    const deps = makeDeps({ NOTIFY_LIMIT_PER_HOUR: '1' });
    clock.offsetMs += Date.parse('2026-11-24T14:10:00Z') - clock.now().getTime();
    // Two requests at 14:10: the second is past the hour's limit and waits for the digest.
    await send(deps, submitRequest({ company: 'First' }));
    await send(deps, submitRequest({ company: 'Second' }));
    const digests = () => notices().filter((m) => /more proposal requests/.test(m.raw));
    let sentAt: number | undefined;
    await runsFor(deps, 60 * MINUTE, async (at) => {
      if (sentAt === undefined && digests().length > 0) sentAt = at;
    });
    const hourEnd = Date.parse('2026-11-24T15:00:00Z');
    expect(sentAt).toBeGreaterThanOrEqual(hourEnd);
    expect(sentAt).toBeLessThanOrEqual(hourEnd + SCHEDULED_EVERY_MS);
    expect(digests()).toHaveLength(1);
  });

  it('erases a held request nobody confirmed 24 hours after it came, with its pointer, telling nobody', async () => {
    const deps = makeDeps({ CONSENT_CONFIRMATION: 'required', CONSENT_SECRET: SECRET });
    const started = clock.now().getTime();
    const reply = await send(deps);
    expect(reply.body).toMatchObject({ status: 'awaiting_confirmation' });
    const id = idOf(reply);
    expect(confirmations()).toHaveLength(1);
    const pointers = async () => (await rawStore(deps.store).list({ prefix: 'keys/' })).blobs;
    // Hourly runs for most of the day (nothing is due), then every minute around the hold's end.
    for (let h = 1; h < 24; h++) {
      clock.offsetMs = started - Date.now() + h * HOUR;
      await run(deps);
    }
    expect(await record(deps, id)).not.toBeNull();
    clock.offsetMs += 59 * MINUTE - 2 * SCHEDULED_EVERY_MS;
    let erasedAt: number | undefined;
    await runsFor(deps, 5 * MINUTE, async (at) => {
      if (erasedAt === undefined && (await record(deps, id)) === null) erasedAt = at;
    });
    expect(erasedAt).toBeGreaterThanOrEqual(started + 24 * HOUR);
    expect(erasedAt).toBeLessThanOrEqual(started + 24 * HOUR + SCHEDULED_EVERY_MS);
    expect(await pointers()).toHaveLength(0);
    expect(await dueEntries(deps)).toHaveLength(0);
    expect(parts.crm.requests).toHaveLength(0);
    expect(notices()).toHaveLength(0);
    expect(log.some((line) => line.entry['event'] === 'consent_hold_expired')).toBe(true);
  });

  it('deletes a request past RETENTION_DAYS with its pointer, and never one that still owes an effect', async () => {
    const deps = makeDeps({
      RETENTION_DAYS: '3',
      NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook`,
      REDELIVERY_BACKOFF_SECONDS: '60',
    });
    const started = clock.now().getTime();
    const done = idOf(await send(deps, submitRequest({ company: 'Done' })));
    // The second: its CRM and the chat down for good. At 72 hours its delivery gives up and the
    // alert is owed, and the alert's chat message keeps trying for 72 hours more.
    parts.crm.behave({ kind: 'status', status: 503 });
    parts.chat.behave({ kind: 'status', status: 500 });
    const owing = idOf(await send(deps, submitRequest({ company: 'Owing' })));
    const pointerOf = async (id: string) => {
      const r = await record(deps, id);
      return r === null ? null : await rawStore(deps.store).get(r.idempotency_entry);
    };
    const entries = { done: (await record(deps, done))!.idempotency_entry, owing: (await record(deps, owing))!.idempotency_entry }; // prettier-ignore
    for (let h = 1; h <= 74; h++) {
      clock.offsetMs = started - Date.now() + h * HOUR;
      await run(deps);
    }
    expect(await record(deps, done)).toBeNull();
    expect(await rawStore(deps.store).get(entries.done)).toBeNull();
    const kept = await record(deps, owing);
    expect(kept?.delivery.state).toBe('failed');
    expect(kept?.alert).toMatchObject({ chat: 'owed' });
    expect(await pointerOf(owing)).not.toBeNull();
    expect(log.some((l) => l.entry['event'] === 'retention_kept_owed_request' && l.entry['request_id'] === owing)).toBe(true); // prettier-ignore
    for (let h = 75; h <= 150; h++) {
      clock.offsetMs = started - Date.now() + h * HOUR;
      await run(deps);
    }
    expect(await record(deps, owing)).toBeNull();
    expect(await rawStore(deps.store).get(entries.owing)).toBeNull();
  }, 90_000); // 150 scheduled runs against the local store: its bound, not its verdict, on a busy machine

  it('sends the CRM its deletion event after a "Not me" whose first attempt failed', async () => {
    const deps = makeDeps({ CONSENT_SECRET: SECRET, REDELIVERY_BACKOFF_SECONDS: '60' });
    const reply = await send(deps);
    expect(reply.status).toBe(201);
    const id = idOf(reply);
    parts.crm.behave({ kind: 'status', status: 503 });
    const denied = await answerConsent(invocation(deps), 'deny_request', {
      action: 'deny_request',
      request_id: id,
      token: linkToken(SECRET, id, 'deny'),
    });
    expect(denied.body).toMatchObject({ status: 'erased' });
    expect(await record(deps, id)).toBeNull();
    const job = async () =>
      (await rawStore(deps.store).get(`jobs/${erasureJobId(id)}`, { type: 'json' })) as JobRecord | null;
    expect((await job())?.erasure?.deletion).toBe('owed');
    const failedAt = parts.crm.requests.length;
    expect(okDeliveries(parts.crm.requests, 0)).toContain(`${id}.erased`);

    parts.crm.behave(OK);
    const next = Date.parse((await job())!.work!['crm_deletion']!.next_at!);
    let sentAt: number | undefined;
    await runsFor(deps, 10 * MINUTE, async (at) => {
      if (sentAt === undefined && (await job())?.erasure?.deletion === 'sent') sentAt = at;
    });
    expect(okDeliveries(parts.crm.requests, failedAt)).toEqual([`${id}.erased`]);
    expect(sentAt).toBeLessThanOrEqual(next + SCHEDULED_EVERY_MS);
    // Sales heard of it at the press, once.
    expect(notices().filter((m) => /they did not send it/.test(m.raw.replace(/=\r?\n/g, '')))).toHaveLength(1);
  });
});
