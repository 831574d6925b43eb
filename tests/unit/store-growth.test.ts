/**
 * Work grows with what is due, not with what is stored: 100,000 stored requests (and their 100,000
 * key pointers) in an in-memory Blobs API. The scheduled run reads only the requests past
 * RETENTION_DAYS and lists only the head of each listing, and the next run resumes at the new head;
 * with 100,000 requests waiting for tomorrow in the due listing, a run reads only what is due now,
 * and does the same work whether 1,000 or 100,000 wait.
 */
import { hash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CrmAdapter } from '../../src/proposal/submit/crm.ts';
import { buildRecord, recordKey, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { timeOrderedId } from '../../src/proposal/store/ids.ts';
import { dueKey } from '../../src/proposal/work/due.ts';
import { RUN_LIMITS, runScheduled } from '../../src/proposal/work/scheduled.ts';
import { memoryBlobs, type MemoryBlobs } from '../helpers/memory-blobs.ts';
import { deletedBy, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

const STORED = 100_000;
const DUE = 500;
const DAY_MS = 86_400_000;
const BATCH = RUN_LIMITS.deletions;

function storeOf(memory: MemoryBlobs) {
  const store = memory.store();
  const blobs = new Map<string, { etag: string; body: string }>();
  memory.stores.set(store.name, blobs);
  let etag = 0;
  const put = (key: string, value: unknown) => blobs.set(key, { etag: `"s${++etag}"`, body: JSON.stringify(value) });
  return { store, blobs, put };
}

/** A stored request and its key's pointer, as a submit leaves them. */
function request(id: string, at: Date, change: (r: ProposalRecord) => ProposalRecord = (r) => r) {
  const entry = `keys/${hash('sha256', id)}`;
  const record = buildRecord(submitRequest(), {
    requestId: id,
    receivedAt: at.toISOString(),
    crm: 'webhook',
    consent: { text: 'c', version: 'v' },
    entryKey: entry,
    notification: { email: 'not_configured', chat: 'not_configured' },
  });
  return { record: change(record), entry, pointer: { fingerprint: 'f', request_id: id, created_at: at.toISOString() } };
}

const workOf = (memory: MemoryBlobs) => {
  const from = { ...memory.counts };
  return () =>
    Object.fromEntries(Object.entries(memory.counts).map(([k, v]) => [k, v - from[k as keyof typeof from]])) as Record<
      keyof typeof from,
      number
    >;
};

describe('100,000 stored requests', () => {
  it('a run reads only what retention deletes, and the next one resumes where it stopped', async () => {
    const memory = memoryBlobs();
    const { store, blobs, put } = storeOf(memory);
    const now = Date.now();
    for (let i = 0; i < STORED; i++) {
      const due = i < DUE;
      // Due: 31 to 40 days old; the rest within the last 29 days (never read: a bare body would show it).
      const at = new Date(now - (due ? 31 * DAY_MS + (i % 9) * DAY_MS : (i % 29) * DAY_MS + 1_000));
      const id = timeOrderedId(at);
      const { record, entry, pointer } = request(id, at, (r) => ({
        ...r,
        delivery: { ...r.delivery, state: 'received' },
        confirmation_email: { state: 'sent' },
      }));
      put(recordKey(id), due ? record : {});
      put(entry, pointer);
    }
    const ctx = testCtx(store, { now: () => new Date(now), env: { RETENTION_DAYS: '30' } });

    const firstWork = workOf(memory);
    const first = await runScheduled(ctx);
    console.info(`run 1 of ${STORED} stored requests (${DUE} past retention):`, JSON.stringify(first), JSON.stringify(firstWork())); // prettier-ignore
    expect(deletedBy(first, 'requests')).toBe(BATCH);
    // Each deleted request is read, and its key's pointer: nothing young is read.
    expect(firstWork().reads).toBeLessThanOrEqual(2 * BATCH + 10);
    expect(firstWork().listedKeys).toBeLessThanOrEqual(8 * BATCH);

    const secondWork = workOf(memory);
    const second = await runScheduled(ctx);
    console.info('run 2:', JSON.stringify(second), JSON.stringify(secondWork()));
    expect(deletedBy(second, 'requests')).toBe(BATCH);
    expect(secondWork().reads).toBeLessThanOrEqual(2 * BATCH + 10);

    const third = await runScheduled(ctx);
    expect(deletedBy(third, 'requests')).toBe(DUE - 2 * BATCH);

    const fourthWork = workOf(memory);
    expect(deletedBy(await runScheduled(ctx), 'requests')).toBe(0);
    expect(fourthWork().reads).toBeLessThanOrEqual(10);
    expect([...blobs.keys()].filter((key) => key.startsWith('requests/'))).toHaveLength(STORED - DUE);
    // The pointers went with their requests.
    expect([...blobs.keys()].filter((key) => key.startsWith('keys/'))).toHaveLength(STORED - DUE);
  }, 120_000);

  /** `waiting` requests due tomorrow (never read: bare bodies), 50 due now; the work of the run that delivers the 50, then of the next one. */
  async function dueRun(waiting: number) {
    const memory = memoryBlobs();
    const { store, put } = storeOf(memory);
    const now = Date.now();
    const tomorrow = new Date(now + DAY_MS).toISOString();
    for (let i = 0; i < waiting; i++) {
      const id = timeOrderedId(new Date(now - (i % 29) * DAY_MS));
      put(recordKey(id), {});
      put(dueKey(tomorrow, 'requests', id), { at: tomorrow });
    }
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const at = new Date(now - 60_000 - i);
      const id = timeOrderedId(at);
      const { record, entry, pointer } = request(id, at);
      put(recordKey(id), { ...record, due_at: at.toISOString() });
      put(dueKey(at.toISOString(), 'requests', id), { at: at.toISOString() });
      put(entry, pointer);
      ids.push(id);
    }
    const delivered: string[] = [];
    const crm: CrmAdapter = {
      name: 'webhook',
      deliver: async (payload) => {
        delivered.push(payload.request_id);
        return { ok: true };
      },
    };
    const ctx = testCtx(store, { now: () => new Date(now), crm });
    const firstWork = workOf(memory);
    const first = await runScheduled(ctx);
    const firstCounts = firstWork();
    const secondWork = workOf(memory);
    const second = await runScheduled(ctx);
    return { first, firstCounts, second, secondCounts: secondWork(), delivered: delivered.sort(), ids: ids.sort() };
  }

  it('a run reads only the requests due now, not the 100,000 due tomorrow, and the next reads none', async () => {
    const few = await dueRun(1_000);
    const many = await dueRun(STORED);
    console.info('due run, 1,000 waiting:', JSON.stringify(few.firstCounts), '100,000 waiting:', JSON.stringify(many.firstCounts)); // prettier-ignore
    expect(many.delivered).toEqual(many.ids);
    expect(many.first).toMatchObject({ due: 50, done: 50, stale: 0 });
    // A request due now: read once; nothing waiting is read.
    expect(many.firstCounts.reads).toBeLessThanOrEqual(50 + 10);
    // A page of the due listing (the 50 due at its head) and one of the requests' (retention stops at its first young one).
    expect(many.firstCounts.listedKeys).toBeLessThanOrEqual(2 * 1_000);
    // The same work with a hundred times more waiting.
    expect(many.firstCounts).toEqual(few.firstCounts);
    // Each delivered request gave its due entry up: the next run finds nothing due and reads nothing.
    expect(many.second).toMatchObject({ due: 0 });
    expect(many.secondCounts.reads).toBe(0);
  }, 120_000);
});
