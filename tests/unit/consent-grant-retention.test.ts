/**
 * A consent grant (MCP URL elicitation) serves one round trip: the scheduled run deletes it with its
 * key's pointer once past GRANT_KEEP_HOURS, from the head of the listing, and keeps the younger ones.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GRANT_KEEP_HOURS } from '../../src/contract/consent.ts';
import { grantForKey, readGrant } from '../../src/proposal/consent/grants.ts';
import { deleteExpiring, GRANT_KEYS_PREFIX, GRANTS_PREFIX } from '../../src/proposal/store/expiring.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { movableClock, testCtx } from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
const SECRET = 'grant-retention-test-secret-of-32-characters';
const HOUR = 3_600_000;
const draft = () => ({
  draft: `sha-256:${randomUUID()}`,
  version: '2026-11-01',
  summary: { company: 'Example GmbH', choices: [] },
});

describe('consent grants', () => {
  it('are deleted with their key pointer past GRANT_KEEP_HOURS, and kept before', async () => {
    const store = parts.blobs.freshStore();
    const start = new Date('2026-11-28T06:00:00.000Z');
    const old = await grantForKey(store, SECRET, randomUUID(), draft(), start);
    const young = await grantForKey(store, SECRET, randomUUID(), draft(), new Date(start.getTime() + 10 * HOUR));
    const names = async (prefix: string) => (await store.listWhile(prefix)).sort();
    expect(await names(GRANT_KEYS_PREFIX)).toHaveLength(2);
    const deleted = async (at: number) =>
      (await deleteExpiring(store, at, GRANT_KEEP_HOURS * HOUR, 200)).grants_deleted;

    expect(await deleted(start.getTime() + GRANT_KEEP_HOURS * HOUR - 1)).toBe(0);
    expect(await readGrant(store, old.id)).not.toBeNull();

    expect(await deleted(start.getTime() + GRANT_KEEP_HOURS * HOUR + 1)).toBe(1);
    expect(await readGrant(store, old.id)).toBeNull();
    expect(await names(GRANTS_PREFIX)).toEqual([`${GRANTS_PREFIX}${young.id}`]);
    expect(await names(GRANT_KEYS_PREFIX)).toEqual([young.pointer]);
  });

  it('are deleted by the scheduled run', async () => {
    const store = parts.blobs.freshStore();
    const clock = movableClock();
    const grant = await grantForKey(store, SECRET, randomUUID(), draft(), clock.now());
    clock.offsetMs += (GRANT_KEEP_HOURS + 1) * HOUR;
    await runScheduled(testCtx(store, { now: clock.now, mono: clock.monotonic }));
    expect(await readGrant(store, grant.id)).toBeNull();
    expect(await store.listWhile(GRANT_KEYS_PREFIX)).toEqual([]);
  });
});
