/**
 * Model-based interleavings of the owed work (fast-check commands run in concurrent batches): submits,
 * sender retries, concurrent sweeps and an operator's redeliver, the clock moving across midnight and
 * past leases (also while an owner counts), store faults (refusals, lost answers, late and slow
 * writes), and CRM, SMTP and chat outages and slow answers.
 * After healing and enough sweeps: at most one request id per key, every stored request in the CRM
 * under one webhook-id, one confirmation and one sales notice per request, no key stuck, nothing
 * deleted that still owed an effect. FC_RUNS raises the runs (default 4); FC_SEED replays a seed.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SubmitDeps } from '../../src/proposal/submit/config.ts';
import { submitProposal } from '../../src/proposal/submit/index.ts';
import { runSweep } from '../../src/proposal/submit/sweep.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { faultyFetch, memoryBlobs, type WriteFault } from '../helpers/memory-blobs.ts';
import { fcSeed } from '../helpers/fc-seed.ts';
import { freePort } from '../../scripts/free-port.ts';
import { movableClock, submitRequest, testSubmitDeps } from '../helpers/submit-fixtures.ts';

const FACTOR = 0.05;
const RUNS = Number(process.env['FC_RUNS'] ?? 4);
const parts = useLoopbackParts();
const memory = memoryBlobs();

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

type Action =
  | { kind: 'submit'; key: number }
  | { kind: 'sweep' }
  | { kind: 'redeliver' }
  | { kind: 'clock'; ms: number }
  | { kind: 'fault'; fault: WriteFault; writes: number }
  | { kind: 'outage'; part: 'crm' | 'smtp' | 'chat'; down: boolean }
  | { kind: 'slow-crm'; ms: number }
  /** The next count (a tally write) stalls past the owner's lease while another instance sweeps. */
  | { kind: 'stall' };

const KEYS = 3;
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('submit' as const), key: fc.nat(KEYS - 1) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'sweep' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'redeliver' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('clock' as const),
      // Moments, past a lease (about 40 s at these store times), past backoff steps; all within a key's 24 hours.
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
  { weight: 1, arbitrary: fc.constant({ kind: 'stall' as const }) },
);

const subjectOf = (raw: string) => /^Subject: (.*)$/im.exec(raw.replace(/\r?\n[ \t]+/g, ' '))?.[1] ?? '';

describe('owed work under interleavings', () => {
  it(`holds its invariants after healing (${RUNS} runs, seed ${fcSeed()})`, { timeout: 600_000 }, async () => {
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
          let unclearWrites = 0;
          const faulty = faultyFetch(memory.fetch, () => {
            if (pending === undefined || pending.left <= 0) return undefined;
            pending.left--;
            if (pending.fault === 'error-after' || pending.fault === 'drop-after') unclearWrites++;
            return pending.fault;
          });
          const store = memory.store({ fetch: faulty.fetch, timeFactor: FACTOR });
          const clock = movableClock();
          // Start just before midnight, so clock moves cross 00:00 UTC.
          clock.offsetMs = Date.parse('2026-11-28T23:59:30Z') - Date.now();
          let smtpDown = false;
          const deps = (ignore = false): SubmitDeps =>
            testSubmitDeps(store, {
              env: {
                CRM_PROVIDER: 'webhook',
                CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
                CRM_WEBHOOK_SECRET: parts.webhookSecret,
                SMTP_URL: smtpDown && !ignore ? deadSmtp : parts.smtp.url,
                MAIL_FROM: 'no-reply@kestrel.example',
                NOTIFY_EMAIL: 'sales@kestrel.example',
                NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook`,
                REDELIVERY_BACKOFF_SECONDS: '30',
              },
              crmTimeoutMs: 1_000,
              inUseWaitMs: 200,
              now: clock.now,
              monotonic: clock.monotonic,
            });
          let stall = false;
          const write = store.writeIf.bind(store);
          store.writeIf = async (key, value, condition) => {
            if (stall && /^(windows|tallies)\//.test(key)) {
              stall = false;
              clock.offsetMs += 60_000;
              await runSweep(deps(), { maxRequests: 100, budgetMs: 5_000, concurrency: 4 });
            }
            return write(key, value, condition);
          };
          const keys = Array.from({ length: KEYS }, () => randomUUID());
          const email = (key: number) => `k${key}@example.com`;
          const accepted = new Set<number>();
          const sent = new Set<number>();
          const submit = async (key: number, d: SubmitDeps) => {
            sent.add(key);
            const reply = await submitProposal(submitRequest({ email: email(key) }), keys[key]!, d);
            if (reply.status === 201 || reply.status === 202) accepted.add(key);
            expect([201, 202, 409, 503]).toContain(reply.status);
          };
          const run = async (a: Action) => {
            switch (a.kind) {
              case 'submit':
                return submit(a.key, deps());
              case 'sweep':
                return runSweep(deps(), { maxRequests: 100, budgetMs: 5_000, concurrency: 4 });
              case 'redeliver':
                return runSweep(deps(), { maxRequests: 100, budgetMs: 5_000, concurrency: 4, ignoreBackoff: true });
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
                stall = true;
                return;
              case 'slow-crm':
                parts.crm.behave({ kind: 'status', status: 200, delayMs: a.ms });
                return;
            }
          };
          for (const batch of batches) await Promise.all(batch.map(run));

          // Healing: no faults, every part up, leases and backoffs run out, retries and sweeps.
          pending = undefined;
          smtpDown = false;
          parts.crm.behave({ kind: 'status', status: 200 });
          parts.chat.behave({ kind: 'status', status: 200 });
          for (let round = 0; round < 4; round++) {
            clock.offsetMs += 3_600_000;
            // A sender retries until it is accepted (201 or 202), then leaves the rest to the sweep.
            for (const key of sent) if (!accepted.has(key)) await submit(key, deps());
            await runSweep(deps(), { maxRequests: 100, budgetMs: 10_000, concurrency: 4 });
          }

          const blobs = memory.stores.get(store.name)!;
          const records = [...blobs.entries()]
            .filter(([k]) => k.startsWith('requests/'))
            .map(([, v]) => JSON.parse(v.body) as ProposalRecord);
          // At most one request id per key; nothing deleted that was accepted.
          expect(records).toHaveLength(accepted.size);
          expect(new Set(records.map((r) => r.contact.email)).size).toBe(records.length);
          const webhookIds = new Set(parts.crm.requests.map((r) => String(r.headers['webhook-id'])));
          for (const record of records) {
            expect(record.delivery.state).toBe('received');
            expect(webhookIds.has(record.request_id)).toBe(true);
            const confirmations = mailsTo(parts.smtp.messages, record.contact.email).length;
            if (record.confirmation_email.state === 'limited') expect(confirmations).toBe(0);
            else {
              expect(record.confirmation_email.state).toBe('sent');
              expect(confirmations).toBeGreaterThanOrEqual(1);
              if (unclearWrites === 0) expect(confirmations).toBe(1);
            }
            const notices = mailsTo(parts.smtp.messages, 'sales@kestrel.example').filter((m) =>
              subjectOf(m.raw).includes(`(${record.request_id})`),
            ).length;
            expect(record.notification).toMatchObject({ email: 'sent', chat: 'sent' });
            expect(notices).toBeGreaterThanOrEqual(1);
            if (unclearWrites === 0) expect(notices).toBe(1);
          }
          // Every CRM delivery was of a stored request; no key stuck, no work left open.
          for (const id of webhookIds) expect(records.map((r) => r.request_id)).toContain(id);
          expect([...blobs.keys()].filter((k) => k.startsWith('open/'))).toEqual([]);
        },
      ),
      { numRuns: RUNS, seed: fcSeed(), endOnFailure: true },
    );
  });
});
