/**
 * What an Idempotency-Key names: an immutable pointer `keys/<UTC day>/<sha256 of the key>` holding
 * `{ fingerprint, request_id, created_at }`, created once (create-if-new) and never changed, so no
 * write to it can race a lease or retention. A key is honoured for KEY_RETENTION_MS from created_at,
 * so its live pointer is in the day of the lookup or the day before: two reads, no listing. Near
 * midnight two first submits may create one in each day; the earliest live pointer wins, and each
 * creator reads the other day again before it stores anything.
 */
import { hash } from 'node:crypto';
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import { isObject } from '../submit/record.ts';
import { StoreUnavailable, type ProposalsStore } from './blobs.ts';
import { timeOrderedId } from './time-ordered-id.ts';

export const POINTERS_PREFIX = 'keys/';
const DAY_MS = 86_400_000;

export interface KeyPointer {
  fingerprint: string;
  request_id: string;
  created_at: string;
}

const dayName = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

const pointerKey = (keyHash: string, ms: number) => `${POINTERS_PREFIX}${dayName(ms)}/${keyHash}`;

/** The UTC day a pointer's name holds; retention deletes whole days from the head of the listing. */
export function pointerDay(key: string): string {
  return key.slice(POINTERS_PREFIX.length, POINTERS_PREFIX.length + 10);
}

/** The oldest day whose pointers may still be live at `now`. */
export function oldestLiveDay(now: Date): string {
  return dayName(now.getTime() - DAY_MS);
}

function isPointer(value: unknown): value is KeyPointer {
  return isObject(value) && ['fingerprint', 'request_id', 'created_at'].every((f) => typeof value[f] === 'string');
}

/** The live pointer of the key (the earliest, should there be two), with its blob name. */
async function livePointer(store: ProposalsStore, keyHash: string, now: Date, days: number[]) {
  const found = await Promise.all(
    days.map(async (ms) => ({
      key: pointerKey(keyHash, ms),
      value: (await store.read(pointerKey(keyHash, ms)))?.value,
    })),
  );
  const live = found.flatMap(({ key, value }) =>
    isPointer(value) && now.getTime() - Date.parse(value.created_at) < KEY_RETENTION_MS
      ? [{ key, pointer: value }]
      : [],
  );
  return live.sort((a, b) => a.pointer.created_at.localeCompare(b.pointer.created_at) || a.key.localeCompare(b.key))[0];
}

/**
 * The request an Idempotency-Key names, created with a new time-ordered id when the key is new (or
 * its 24 hours are over); `reused` when it names a request with another body.
 */
export async function requestForKey(
  store: ProposalsStore,
  idempotencyKey: string,
  fingerprint: string,
  now: () => Date,
): Promise<{ kind: 'request'; pointer: KeyPointer; key: string; created: boolean } | { kind: 'reused' }> {
  const keyHash = hash('sha256', idempotencyKey);
  // A refused create means another pointer appeared: read again (a damaged one must not loop forever).
  for (let tries = 0; tries < 3; tries++) {
    const at = now();
    const today = at.getTime();
    const found = await livePointer(store, keyHash, at, [today - DAY_MS, today]);
    if (found) {
      if (found.pointer.fingerprint !== fingerprint) return { kind: 'reused' };
      return { kind: 'request', ...found, created: false };
    }
    const pointer = { fingerprint, request_id: timeOrderedId(at), created_at: at.toISOString() };
    const key = pointerKey(keyHash, today);
    if ((await store.writeIf(key, pointer, { ifNew: true })) === null) continue;
    // Created: only a pointer made the day before, just before midnight, can still come first.
    const earlier = await livePointer(store, keyHash, at, [today - DAY_MS]);
    if (earlier === undefined || earlier.pointer.created_at > pointer.created_at) {
      return { kind: 'request', pointer, key, created: true };
    }
    if (earlier.pointer.fingerprint !== fingerprint) return { kind: 'reused' };
    return { kind: 'request', ...earlier, created: false };
  }
  throw new StoreUnavailable('claim', 'malformed');
}

/** Deletes a pointer only while it names `requestId` (erasure of a request). */
export async function removePointer(store: ProposalsStore, key: string, requestId: string): Promise<boolean> {
  const value = (await store.read(key))?.value;
  if (!isPointer(value) || value.request_id !== requestId) return false;
  await store.remove(key);
  return true;
}
