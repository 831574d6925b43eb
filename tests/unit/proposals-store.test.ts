/**
 * The storage module against a real local Blobs server, directly and through a proxy that
 * fails: every answer a healthy store never gives becomes StoreUnavailable, never a success,
 * and a tally admits exactly its limit however many count at once.
 */
import { randomUUID } from 'node:crypto';
import { setEnvironmentContext } from '@netlify/blobs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORE_LIMITS, StoreUnavailable, type ProposalsStore } from '../../src/proposal/store/blobs.ts';
import { deleteEnded, tally, windowOf } from '../../src/proposal/store/tally.ts';
import { rawStore, startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { on, startBlobsFaultProxy, type BlobsFaultProxy } from '../helpers/blobs-fault-proxy.ts';

const DAY_MS = 86_400_000;
let blobs: TestBlobs;
let proxy: BlobsFaultProxy;
let store: ProposalsStore;

beforeAll(async () => {
  blobs = await startBlobs();
  proxy = await startBlobsFaultProxy(blobs.url);
  // Every client in this file, the module's and rawStore's, goes through the proxy.
  setEnvironmentContext({ siteID: blobs.siteID, token: blobs.token, edgeURL: proxy.url, uncachedEdgeURL: proxy.url });
});
afterAll(async () => {
  await proxy.stop();
  await blobs.stop();
});
beforeEach(() => {
  proxy.heal();
  proxy.seen.length = 0;
  store = blobs.freshStore();
});

/** Counts `event` under `name` in the UTC day of `now`: allowed while its place is within `limit`. */
async function countEvent(name: string, event: string, { limit, now = new Date() }: { limit: number; now?: Date }) {
  const window = windowOf(name, now, DAY_MS);
  const place = await tally(store, window, event, { now, limit });
  return { allowed: place <= limit, count: Math.min(place, limit), resetAt: window.endsAt.toISOString() };
}

async function failure(promise: Promise<unknown>): Promise<StoreUnavailable> {
  const error = await promise.then(
    () => new Error('resolved'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreUnavailable);
  return error as StoreUnavailable;
}

describe('tally', () => {
  it('admits exactly 3 of 20 simultaneous events with limit 3', async () => {
    const now = new Date('2026-11-24T10:00:00Z');
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => countEvent('confirm:ann@example.com', `event-${i}`, { limit: 3, now })),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(
      results
        .filter((r) => r.allowed)
        .map((r) => r.count)
        .sort(),
    ).toEqual([1, 2, 3]);
    expect(results.every((r) => r.resetAt === '2026-11-25T00:00:00.000Z')).toBe(true);
    // One blob, holding exactly the three events admitted.
    const { blobs: listed } = await rawStore(store).list();
    expect(listed).toHaveLength(1);
    const stored = (await rawStore(store).get(listed[0]!.key, { type: 'json' })) as { events: unknown[] };
    expect(stored.events).toHaveLength(3);
  });

  it('starts again in the next window and counts each key apart', async () => {
    const day1 = new Date('2026-11-24T23:59:59Z');
    const day2 = new Date('2026-11-25T00:00:01Z');
    const count = (key: string, now: Date, event: string = randomUUID()) => countEvent(key, event, { limit: 1, now });
    expect((await count('a', day1, 'first')).allowed).toBe(true);
    expect((await count('a', day1)).allowed).toBe(false);
    expect((await count('b', day1)).allowed).toBe(true);
    expect(await count('a', day2)).toEqual({ allowed: true, count: 1, resetAt: '2026-11-26T00:00:00.000Z' });
  });

  it('counts an event once: the same event again keeps its place and is allowed again', async () => {
    const now = new Date('2026-11-24T10:00:00Z');
    const count = (event: string) => countEvent('site', event, { limit: 2, now });
    expect(await count('r1')).toMatchObject({ allowed: true, count: 1 });
    expect(await count('r1')).toMatchObject({ allowed: true, count: 1 });
    expect(await count('r2')).toMatchObject({ allowed: true, count: 2 });
    expect(await count('r3')).toMatchObject({ allowed: false, count: 2 });
  });

  it('never writes the counted key itself into a blob name', async () => {
    await countEvent('confirm:ann@example.com', 'e', { limit: 1 });
    const { blobs: listed } = await rawStore(store).list();
    expect(listed.map((b) => b.key).join(' ')).not.toContain('ann@example.com');
  });

  it('throws StoreUnavailable, never "allowed", when the store fails its write', async () => {
    proxy.inject({ match: (op) => op.method === 'PUT', fault: { kind: 'status', status: 503 } });
    const error = await failure(countEvent('k', 'e', { limit: 3 }));
    expect(error.reason).toBe('server-error');
  });
});

describe('a conditional write the store does not confirm', () => {
  it.each([
    [500, 'server-error'],
    [503, 'server-error'],
    [429, 'rate-limited'],
  ] as const)(
    'answered %i on every attempt: StoreUnavailable (%s) after STORE_LIMITS.maxAttempts attempts',
    async (status, reason) => {
      proxy.inject({ match: on.recordCreate, fault: { kind: 'status', status } });
      const error = await failure(store.writeIf('requests/r1', { n: 1 }, { ifNew: true }));
      expect(error.reason).toBe(reason);
      // The client's own retry loop (5 more, seconds apart) never ran.
      expect(proxy.seen.filter(on.recordCreate)).toHaveLength(STORE_LIMITS.maxAttempts);
      expect(await rawStore(store).get('requests/r1')).toBeNull();
    },
  );

  it('succeeds when a 503 or 429 clears within the attempts, and returns a version that works', async () => {
    proxy.inject({ match: on.recordCreate, fault: { kind: 'status', status: 429 }, times: 1 });
    proxy.inject({ match: on.recordCreate, fault: { kind: 'status', status: 503 }, times: 1 });
    const version = await store.writeIf('requests/r1', { n: 1 }, { ifNew: true });
    expect(version).toMatch(/^".+"$/);
    expect(await store.writeIf('requests/r1', { n: 2 }, { ifVersion: version! })).not.toBeNull();
    expect(await store.writeIf('requests/r1', { n: 3 }, { ifVersion: version! })).toBeNull();
  });

  it('a success without an ETag is read back: the version of what landed, never a guess', async () => {
    proxy.inject({ match: on.recordCreate, fault: { kind: 'no-etag' } });
    const version = await store.writeIf('requests/r1', { n: 1 }, { ifNew: true });
    expect(await store.writeIf('requests/r1', { n: 2 }, { ifVersion: version! })).not.toBeNull();
  });

  it('a dropped connection is read back; the write had not landed, so it is sent once more', async () => {
    proxy.inject({ match: on.recordCreate, fault: { kind: 'drop' }, times: 1 });
    expect(await store.writeIf('requests/r1', { n: 1 }, { ifNew: true })).not.toBeNull();
    expect(proxy.seen.filter(on.recordCreate)).toHaveLength(2);
  });

  it('an answer lost after the write landed is read back: ours, so a success, not a lost race', async () => {
    proxy.inject({ match: on.recordCreate, fault: { kind: 'drop-after' } });
    expect(await store.writeIf('requests/r1', { n: 1 }, { ifNew: true })).not.toBeNull();
    expect(proxy.seen.filter(on.recordCreate)).toHaveLength(1);
    expect(await rawStore(store).get('requests/r1', { type: 'json' })).toEqual({ n: 1 });
  });

  it('another value found on reading back is a lost race (null), whatever the answer was', async () => {
    await rawStore(store).setJSON('requests/r1', { n: 0 });
    proxy.inject({ match: on.recordCreate, fault: { kind: 'status', status: 503 } });
    expect(await store.writeIf('requests/r1', { n: 1 }, { ifNew: true })).toBeNull();
  });

  it('a write that always hangs ends as a timeout within the call bound', async () => {
    proxy.inject({ match: on.recordCreate, fault: { kind: 'hang' } });
    expect((await failure(store.writeIf('requests/r1', { n: 1 }, { ifNew: true }))).reason).toBe('timeout');
  }, 20_000);

  it('a refused condition (412) is an answer, not a failure', async () => {
    expect(await store.writeIf('requests/r1', { n: 1 }, { ifNew: true })).not.toBeNull();
    expect(await store.writeIf('requests/r1', { n: 2 }, { ifNew: true })).toBeNull();
  });
});

describe('reads, deletes and listings', () => {
  it('retries a read whose connection dropped, and fails it when every attempt does', async () => {
    await store.writeIf('due/x', { n: 1 }, { ifNew: true });
    proxy.inject({ match: (op) => op.method === 'GET', fault: { kind: 'drop' }, times: 1 });
    expect((await store.read('due/x'))?.value).toEqual({ n: 1 });
    proxy.inject({ match: (op) => op.method === 'GET', fault: { kind: 'drop' } });
    expect((await failure(store.read('due/x'))).reason).toBe('unreachable');
    expect((await failure(store.listWhile('due/'))).reason).toBe('unreachable');
  });

  it('a delete answered 503 throws StoreUnavailable', async () => {
    proxy.inject({ match: on.dueWrite, fault: { kind: 'status', status: 503 } });
    expect((await failure(store.remove('due/x'))).operation).toBe('delete');
  });
});

describe('what time deletes', () => {
  it('deletes ended tallies from the head of the listing; a failed delete is left to the next run', async () => {
    const raw = rawStore(store);
    const then = new Date('2026-11-20T10:00:00Z');
    await tally(store, windowOf('site', then, DAY_MS), 'r1', { now: then });
    const [key] = (await raw.list()).blobs.map((b) => b.key);
    const later = new Date(then.getTime() + 4 * DAY_MS);
    proxy.inject({ match: (op) => op.method === 'DELETE', fault: { kind: 'status', status: 503 } });
    expect((await failure(deleteEnded(store, later, 200))).reason).toBe('server-error');
    expect(await raw.get(key!)).not.toBeNull();
    proxy.heal();
    expect(await deleteEnded(store, later, 200)).toBe(1);
    expect(await raw.get(key!)).toBeNull();
  });
});
