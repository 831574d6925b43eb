/**
 * A consent grant (MCP URL elicitation) serves one round trip: the sweep deletes it with its key's
 * pointer once past GRANT_KEEP_HOURS, from the head of the listing, and keeps the younger ones.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { grantForKey, readGrant } from '../../src/proposal/consent/grant.ts';
import {
  deleteExpiredGrants,
  GRANT_KEEP_HOURS,
  GRANT_KEYS_PREFIX,
  GRANTS_PREFIX,
} from '../../src/proposal/store/grants.ts';
import { runSweep } from '../../src/proposal/submit/sweep.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { movableClock, testSubmitDeps } from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
const SECRET = 'grant-retention-test-secret-of-32-characters';
const HOUR = 3_600_000;
const draft = () => ({ draft: `sha-256:${randomUUID()}`, key: randomUUID(), version: '2026-11-01' });

describe('consent grants', () => {
  it('are deleted with their key pointer past GRANT_KEEP_HOURS, and kept before', async () => {
    const store = parts.blobs.freshStore();
    const start = new Date('2026-11-28T06:00:00.000Z');
    const old = await grantForKey(store, SECRET, draft(), start);
    const young = await grantForKey(store, SECRET, draft(), new Date(start.getTime() + 10 * HOUR));
    const names = async (prefix: string) => (await store.list(prefix)).sort();
    expect(await names(GRANT_KEYS_PREFIX)).toHaveLength(2);

    expect(await deleteExpiredGrants(store, new Date(start.getTime() + GRANT_KEEP_HOURS * HOUR - 1))).toBe(0);
    expect(await readGrant(store, old.id)).not.toBeNull();

    expect(await deleteExpiredGrants(store, new Date(start.getTime() + GRANT_KEEP_HOURS * HOUR + 1))).toBe(1);
    expect(await readGrant(store, old.id)).toBeNull();
    expect(await names(GRANTS_PREFIX)).toEqual([`${GRANTS_PREFIX}${young.id}`]);
    expect(await names(GRANT_KEYS_PREFIX)).toEqual([young.pointer]);
  });

  it('are deleted by the sweep', async () => {
    const store = parts.blobs.freshStore();
    const clock = movableClock();
    const grant = await grantForKey(store, SECRET, draft(), clock.now());
    clock.offsetMs += (GRANT_KEEP_HOURS + 1) * HOUR;
    await runSweep(testSubmitDeps(store, { now: clock.now }));
    expect(await readGrant(store, grant.id)).toBeNull();
    expect(await store.list(GRANT_KEYS_PREFIX)).toEqual([]);
  });
});
