/**
 * Model-based interleavings of the owed work (fast-check commands run in concurrent batches): submits,
 * sender retries, the person's answers ("Yes, this was me", "Not me"), scheduled runs (several at
 * once, as overlapping minutes would) and an operator's redeliver, the clock moving across midnight
 * and past claims (also while an owner counts), invocations that crash mid-way, store faults
 * (refusals, lost answers, late and slow writes), and CRM, SMTP and chat outages and slow answers.
 * The model is far simpler than the engine: per key, whether it was accepted and what the person
 * answered. After healing and enough scheduled runs: at most one request id per key, every stored
 * request in the CRM under one webhook-id, one confirmation and one sales notice per request, a
 * confirmed one's update sent, a withdrawn one erased with its deletion event and sales told, no key
 * stuck, nothing due left, nothing deleted that still owed an effect. FC_RUNS raises the runs
 * (default 4); FC_SEED replays a seed.
 */
import { hash, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConsent } from '../../src/proposal/consent/answer.ts';
import { linkToken } from '../../src/proposal/notify/links.ts';
import { StoreUnavailable, type ProposalsStore } from '../../src/proposal/store/blobs.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { listDue } from '../../src/proposal/work/due.ts';
import type { JobRecord } from '../../src/proposal/work/jobs.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { headerLines, mailsTo } from '../helpers/smtp.ts';
import { faultyFetch, memoryBlobs, type WriteFault } from '../helpers/memory-blobs.ts';
import { fcSeed } from '../helpers/fc-seed.ts';
import { freePort } from '../../scripts/free-port.ts';
import { movableClock, submit as submitProposal, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

const FACTOR = 0.05;
const RUNS = Number(process.env['FC_RUNS'] ?? 4);
const SECRET = 'interleavings-consent-secret-of-32-characters';
const parts = useLoopbackParts();
const memory = memoryBlobs();

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

type Action =
  | { kind: 'submit'; key: number }
  /** The scheduled function's run (Netlify's minute). */
  | { kind: 'scheduled' }
  | { kind: 'redeliver' }
  /** The person presses a link of the confirmation email. */
  | { kind: 'answer'; key: number; answer: 'confirm' | 'deny' }
  /** A submit whose invocation dies at its `after`+1-th store call: nothing of it happens from then on. */
  | { kind: 'crash'; key: number; after: number }
  | { kind: 'clock'; ms: number }
  | { kind: 'fault'; fault: WriteFault; writes: number }
  | { kind: 'outage'; part: 'crm' | 'smtp' | 'chat'; down: boolean }
  | { kind: 'slow-crm'; ms: number }
  /**
   * A submit whose count (a tally write) stalls past its claim while a scheduled run comes; run
   * alone, so the time that passes is time in which every other effect has ended (each is bounded).
   */
  | { kind: 'stall'; key: number };

const KEYS = 3;
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('submit' as const), key: fc.nat(KEYS - 1) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'scheduled' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'redeliver' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      key: fc.nat(KEYS - 1),
      answer: fc.constantFrom('confirm' as const, 'deny' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('crash' as const), key: fc.nat(KEYS - 1), after: fc.nat(24) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('clock' as const),
      // Moments, past a claim (an invocation's minute), past backoff steps; all within a key's 24 hours.
      ms: fc.constantFrom(200, 5_000, 45_000, 120_000, 1_200_000),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fault' as const),
      fault: fc.constantFrom<WriteFault>(
        'error-before',
        'error-after',
        'drop-before',
        'drop-after',
        { lateMs: 150 },
        { slowMs: 150 },
      ),
      writes: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('outage' as const),
      part: fc.constantFrom('crm' as const, 'smtp' as const, 'chat' as const),
      down: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('slow-crm' as const), ms: fc.constantFrom(50, 1_500) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('stall' as const), key: fc.nat(KEYS - 1) }) },
);

const subjectOf = (raw: string) => /^Subject: (.*)$/im.exec(raw.replace(/\r?\n[ \t]+/g, ' '))?.[1] ?? '';
/** A message's Message-ID: the sales notice's is `notification-<request id>@…`. */
const messageIdOf = (raw: string) => new Map(headerLines(raw)).get('message-id') ?? '';

/** The store as an invocation that dies at its `after`+1-th call sees it: that call and every later one never answer. */
function crashing(store: ProposalsStore, after: number): ProposalsStore {
  let calls = 0;
  const never = new Promise<never>(() => undefined);
  const gate = <T>(call: () => Promise<T>): Promise<T> => (++calls > after ? never : call());
  const crashed = Object.create(store) as ProposalsStore;
  return Object.assign(crashed, {
    read: (key: string, deadline?: number) => gate(() => store.read(key, deadline)),
    writeIf: (key: string, value: unknown, condition: Parameters<ProposalsStore['writeIf']>[2]) =>
      gate(() => store.writeIf(key, value, condition)),
    remove: (key: string) => gate(() => store.remove(key)),
    listWhile: (prefix: string, more?: (key: string) => boolean) => gate(() => store.listWhile(prefix, more)),
  });
}

describe('owed work under interleavings', () => {
  it(`holds its invariants after healing (${RUNS} runs, seed ${fcSeed()})`, { timeout: 3_600_000 }, async () => {
    const deadSmtp = `smtp://127.0.0.1:${await freePort()}`;
    console.info(`interleavings: seed ${fcSeed()}, ${RUNS} runs`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(action, { minLength: 1, maxLength: 3 }), { minLength: 3, maxLength: 12 }),
        async (batches) => {
          parts.crm.requests.length = 0;
          parts.smtp.messages.length = 0;
          parts.chat.requests.length = 0;
          parts.crm.behave({ kind: 'status', status: 200 });
          parts.chat.behave({ kind: 'status', status: 200 });
          let pending: { fault: WriteFault; left: number } | undefined;
          // Writes whose answer was lost after they landed, and crashes: an effect may then repeat.
          let unclear = 0;
          const faulty = faultyFetch(memory.fetch, () => {
            if (pending === undefined || pending.left <= 0) return undefined;
            pending.left--;
            if (pending.fault === 'error-after' || pending.fault === 'drop-after') unclear++;
            return pending.fault;
          });
          const store = memory.store({ fetch: faulty.fetch, timeFactor: FACTOR });
          const blobs = () => memory.stores.get(store.name) ?? new Map<string, { etag: string; body: string }>();
          const clock = movableClock();
          // Start just before midnight, so clock moves cross 00:00 UTC.
          clock.offsetMs = Date.parse('2026-11-28T23:59:30Z') - Date.now();
          let smtpDown = false;
          /** An invocation's context, made when it starts (its claims end with it). */
          const deps = (ignore = false, on = store): Ctx =>
            testCtx(on, {
              env: {
                CRM_PROVIDER: 'webhook',
                CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
                CRM_WEBHOOK_SECRET: parts.webhookSecret,
                SMTP_URL: smtpDown && !ignore ? deadSmtp : parts.smtp.url,
                MAIL_FROM: 'no-reply@kestrel.example',
                NOTIFY_EMAIL: 'sales@kestrel.example',
                NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook`,
                REDELIVERY_BACKOFF_SECONDS: '30',
                CRM_TIMEOUT_MS: '1000',
                CONSENT_SECRET: SECRET,
              },
              now: clock.now,
              mono: clock.monotonic,
            });
          let stall = false;
          let leased = false;
          const write = store.writeIf.bind(store);
          store.writeIf = async (key, value, condition) => {
            // A count made under the request's claim (a gate's, after the record was written): it stalls.
            if (stall && key.startsWith('requests/')) leased = true;
            if (stall && leased && /^windows\//.test(key)) {
              stall = false;
              // Past the claim (at most the invocation's minute) and the owners' skew.
              clock.offsetMs += 66_000;
              await runScheduled(deps());
            }
            return write(key, value, condition);
          };
          const keys = Array.from({ length: KEYS }, () => randomUUID());
          const email = (key: number) => `k${key}@example.com`;
          const accepted = new Set<number>();
          const sent = new Set<number>();
          /** Keys whose "Not me" was pressed (it may have landed whatever the answer): never sent again. */
          const denied = new Set<number>();
          /** Keys whose "Yes" was pressed. */
          const confirmed = new Set<number>();
          const submit = async (key: number, d: Ctx) => {
            sent.add(key);
            const reply = await submitProposal(d, submitRequest({ email: email(key) }), keys[key]!, {
              inUseWaitMs: 200,
            });
            if (reply.status === 201 || reply.status === 202) accepted.add(key);
            expect([201, 202, 409, 503]).toContain(reply.status);
          };
          /** The request a key names now, read past the store under test. */
          const requestOf = (key: number) => {
            const pointer = blobs().get(`keys/${hash('sha256', keys[key]!)}`);
            return pointer === undefined ? undefined : (JSON.parse(pointer.body) as { request_id: string }).request_id;
          };
          const recordOf = (id: string) => {
            const found = blobs().get(`requests/${id}`);
            return found === undefined ? undefined : (JSON.parse(found.body) as ProposalRecord);
          };
          /** The person's press: its reply's status, or 500 where the door answers a store failure so. */
          const answer = async (key: number, what: 'confirm' | 'deny') => {
            const id = requestOf(key);
            if (id === undefined) return 0;
            const action = what === 'confirm' ? ('confirm_request' as const) : ('deny_request' as const);
            const body = { action, request_id: id, token: linkToken(SECRET, id, what) };
            try {
              const reply = await answerConsent(deps(), action, body);
              // 503: the store did not answer the press, and nothing was changed (the invariants below hold it).
              expect([200, 409, 410, 422, 503]).toContain(reply.status);
              return reply.status;
            } catch (error) {
              if (!(error instanceof StoreUnavailable)) throw error;
              return 500;
            }
          };
          const run = async (a: Action, batch: Action[]) => {
            switch (a.kind) {
              case 'submit':
                // A key whose request the person withdrew is not sent again (nor while it is being withdrawn).
                if (
                  denied.has(a.key) ||
                  batch.some((b) => b.kind === 'answer' && b.answer === 'deny' && b.key === a.key)
                )
                  return;
                return submit(a.key, deps());
              case 'crash':
                if (denied.has(a.key)) return;
                sent.add(a.key);
                unclear++;
                // Never answers: the invocation is gone.
                void submitProposal(
                  deps(false, crashing(store, a.after)),
                  submitRequest({ email: email(a.key) }),
                  keys[a.key]!,
                );
                return;
              case 'answer':
                (a.answer === 'deny' ? denied : confirmed).add(a.key);
                await answer(a.key, a.answer);
                return;
              case 'scheduled':
                return runScheduled(deps());
              case 'redeliver':
                return runScheduled(deps(), { ignoreBackoff: true });
              case 'clock':
                clock.offsetMs += a.ms;
                return;
              case 'fault':
                pending = { fault: a.fault, left: a.writes };
                return;
              case 'outage':
                if (a.part === 'smtp') smtpDown = a.down;
                else parts[a.part].behave({ kind: 'status', status: a.down ? 503 : 200 });
                return;
              case 'stall':
                return;
              case 'slow-crm':
                parts.crm.behave({ kind: 'status', status: 200, delayMs: a.ms });
                return;
            }
          };
          for (const batch of batches) {
            if (process.env['FC_DEBUG']) process.stderr.write(`BATCH ${JSON.stringify(batch)}\n`);
            await Promise.all(batch.map((a) => run(a, batch)));
            for (const a of batch) {
              if (a.kind !== 'stall' || denied.has(a.key)) continue;
              stall = true;
              leased = false;
              await submit(a.key, deps());
              stall = false;
            }
          }

          // Healing: no faults, every part up, claims and backoffs run out, retries and scheduled runs.
          pending = undefined;
          smtpDown = false;
          parts.crm.behave({ kind: 'status', status: 200 });
          parts.chat.behave({ kind: 'status', status: 200 });
          for (let round = 0; round < 4; round++) {
            clock.offsetMs += 3_600_000;
            // A sender retries until it is accepted (201 or 202), then leaves the rest to the scheduled run.
            for (const key of sent) if (!accepted.has(key) && !denied.has(key)) await submit(key, deps());
            // A person whose press failed presses again until the page says it is done (or used).
            for (const key of denied) {
              const id = requestOf(key);
              if (id !== undefined && recordOf(id) !== undefined) await answer(key, 'deny');
            }
            for (const key of confirmed) {
              const id = denied.has(key) ? undefined : requestOf(key);
              if (id !== undefined && recordOf(id)?.consent.vouched_by !== 'first_party') await answer(key, 'confirm');
            }
            const report = await runScheduled(deps());
            if (process.env['FC_DEBUG']) console.warn(`HEAL ${round} ${JSON.stringify(report)}`);
          }

          if (process.env['FC_DEBUG']) {
            for (const call of vi.mocked(console.warn).mock.calls) process.stdout.write(`LOG ${String(call[0])}\n`);
            for (const m of parts.smtp.messages) process.stdout.write(`MAIL ${subjectOf(m.raw)}\n`);
          }
          const stored = [...blobs().entries()];
          const records = stored
            .filter(([k]) => k.startsWith('requests/'))
            .map(([, v]) => JSON.parse(v.body) as ProposalRecord);
          const erasures = stored
            .filter(([k]) => k.startsWith('jobs/') && k.endsWith('-erasure'))
            .map(([, v]) => JSON.parse(v.body) as JobRecord);
          const live = [...accepted].filter((key) => !denied.has(key));
          // At most one request id per key; nothing deleted that was accepted and not withdrawn; every withdrawn one erased.
          expect(records).toHaveLength(live.length);
          expect(records.map((r) => r.contact.email).sort()).toEqual(live.map(email).sort());
          const webhookIds = parts.crm.requests.map((r) => String(r.headers['webhook-id']));
          for (const record of records) {
            expect(record.delivery.state).toBe('received');
            expect(webhookIds).toContain(record.request_id);
            const confirmations = mailsTo(parts.smtp.messages, record.contact.email).length;
            if (record.confirmation_email.state === 'limited') expect(confirmations).toBe(0);
            else {
              expect(record.confirmation_email.state).toBe('sent');
              expect(confirmations).toBeGreaterThanOrEqual(1);
              if (unclear === 0) expect(confirmations).toBe(1);
            }
            const notices = mailsTo(parts.smtp.messages, 'sales@kestrel.example').filter((m) =>
              messageIdOf(m.raw).startsWith(`<notification-${record.request_id}@`),
            ).length;
            expect(record.notification).toMatchObject({ email: 'sent', chat: 'sent' });
            expect(notices).toBeGreaterThanOrEqual(1);
            if (unclear === 0) expect(notices).toBe(1);
            // A confirmed request: first party, and the CRM told so once it had the request.
            if (record.consent.vouched_by === 'first_party') {
              expect(record.consent_update).toEqual({ state: 'sent' });
              expect(webhookIds).toContain(`${record.request_id}.consent-confirmed`);
            }
          }
          for (const key of confirmed) {
            const record = records.find((r) => r.contact.email === email(key));
            if (record !== undefined) expect(record.consent.vouched_by).toBe('first_party');
          }
          // A withdrawn request: its CRM record deleted by event when the CRM had it, and sales told.
          for (const job of erasures) {
            expect(['sent', 'none']).toContain(job.erasure?.deletion);
            if (job.erasure?.deletion === 'sent') expect(webhookIds).toContain(`${job.period}.erased`);
            expect(job.message.email).not.toBe('owed');
            expect(job.message.chat).not.toBe('owed');
          }
          // Every CRM delivery was of a request stored, kept or withdrawn; no key stuck, no work left due.
          const known = [...records.map((r) => r.request_id), ...erasures.map((j) => j.period)];
          for (const id of webhookIds) expect(known).toContain(id.split('.')[0]);
          expect(await listDue(store, clock.now(), 100)).toEqual([]);
          // Nothing stored owes anything, nor holds a claim.
          for (const record of records) expect([record.due_at, record.claim]).toEqual([undefined, undefined]);
        },
      ),
      {
        numRuns: RUNS,
        seed: fcSeed(),
        endOnFailure: true,
        ...(process.env['FC_PATH'] && { path: process.env['FC_PATH'] }),
      },
    );
  });
});
