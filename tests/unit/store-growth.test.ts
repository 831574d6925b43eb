/**
 * Work grows with what is due, not with what is stored: 100,000 stored requests (and 100,000 key
 * pointers) in an in-memory Blobs API; a sweep with retention reads only the requests past
 * RETENTION_DAYS and lists only the head of each listing, and the next sweep resumes at the new head.
 */
import { describe, expect, it } from 'vitest';
import { runSweep } from '../../src/proposal/submit/sweep.ts';
import { buildRecord, recordKey } from '../../src/proposal/submit/record.ts';
import { timeOrderedId } from '../../src/proposal/store/time-ordered-id.ts';
import { RETENTION_BATCH } from '../../src/proposal/store/retention.ts';
import { memoryBlobs } from '../helpers/memory-blobs.ts';
import { submitRequest, testSubmitDeps } from '../helpers/submit-fixtures.ts';

const STORED = 100_000;
const DUE = 700;
const DAY_MS = 86_400_000;

describe('100,000 stored requests', () => {
  it('a sweep reads only what retention deletes, and the next one resumes where it stopped', async () => {
    const memory = memoryBlobs();
    const store = memory.store();
    const blobs = new Map<string, { etag: string; body: string }>();
    memory.stores.set(store.name, blobs);
    const now = Date.now();
    let etag = 0;
    const put = (key: string, body: string) => blobs.set(key, { etag: `"s${++etag}"`, body });
    for (let i = 0; i < STORED; i++) {
      const due = i < DUE;
      // Due: 31 to 40 days old; the rest within the last 29 days (never read: a bare body would show it).
      const at = new Date(now - (due ? 31 * DAY_MS + (i % 9) * DAY_MS : (i % 29) * DAY_MS + 1_000));
      const id = timeOrderedId(at);
      const record = buildRecord(submitRequest(), {
        requestId: id,
        receivedAt: at.toISOString(),
        crm: 'inbox',
        consent: { text: 'c', version: 'v' },
      });
      put(
        recordKey(id),
        due
          ? JSON.stringify({
              ...record,
              delivery: { ...record.delivery, state: 'received' },
              confirmation_email: { state: 'sent' },
            })
          : '{}',
      );
      const day = new Date(due ? at.getTime() : now).toISOString().slice(0, 10);
      put(`keys/${day}/${id}`, '{}');
    }
    const deps = testSubmitDeps(store, { now: () => new Date(now) });
    deps.redelivery = { ...deps.redelivery, retentionMs: 30 * DAY_MS };

    const before = { ...memory.counts };
    const first = await runSweep(deps);
    const work = (from: typeof before) =>
      Object.fromEntries(Object.entries(memory.counts).map(([k, v]) => [k, v - from[k as keyof typeof before]]));
    const firstWork = work(before);
    console.info(
      `sweep 1 of ${STORED} stored requests (${DUE} due):`,
      JSON.stringify(first),
      JSON.stringify(firstWork),
    );
    expect(first.requestsDeleted).toBe(RETENTION_BATCH);
    expect(first.entriesDeleted).toBe(RETENTION_BATCH);
    // Each deleted request is read (and its marker checked): nothing young is read.
    expect(firstWork['reads']).toBeLessThanOrEqual(3 * RETENTION_BATCH + 10);
    expect(firstWork['listedKeys']).toBeLessThanOrEqual(8 * RETENTION_BATCH);

    const again = { ...memory.counts };
    const second = await runSweep(deps);
    const secondWork = work(again);
    console.info('sweep 2:', JSON.stringify(second), JSON.stringify(secondWork));
    expect(second.requestsDeleted).toBe(DUE - RETENTION_BATCH);
    expect(second.entriesDeleted).toBe(DUE - RETENTION_BATCH);
    expect(secondWork['reads']).toBeLessThanOrEqual(3 * (DUE - RETENTION_BATCH) + 10);

    const third = { ...memory.counts };
    expect((await runSweep(deps)).requestsDeleted).toBe(0);
    expect(work(third)['reads']).toBeLessThanOrEqual(10);
    expect([...blobs.keys()].filter((key) => key.startsWith('requests/'))).toHaveLength(STORED - DUE);
  }, 120_000);
});
