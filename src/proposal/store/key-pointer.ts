/**
 * What an idempotency key names: one pointer per key, `keys/<sha256 of the key>` holding
 * `{ fingerprint, request_id, created_at }`. It is created if new; once its KEY_RETENTION_MS are over
 * it is replaced, conditional on the version read (If-Match), by a pointer to a new request; it is
 * deleted with its request. Every first submit of a key meets the same blob, so two of them, whatever
 * the time of day or the clocks of their instances, can never get two request ids: one create wins,
 * the other reads the winner's pointer.
 */
import { hash } from 'node:crypto';
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import { isObject, StoreUnavailable, type ProposalsStore } from './blobs.ts';
import { timeOrderedId } from './time-ordered-id.ts';

export const POINTERS_PREFIX = 'keys/';
const DAY_MS = 86_400_000;

export interface KeyPointer {
  fingerprint: string;
  request_id: string;
  created_at: string;
}

const pointerKey = (keyHash: string) => `${POINTERS_PREFIX}${keyHash}`;

/** Pointers of the release before this one lived in day buckets, `keys/<UTC day>/<hash>`. */
const legacyKey = (keyHash: string, ms: number) =>
  `${POINTERS_PREFIX}${new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10)}/${keyHash}`;

function isPointer(value: unknown): value is KeyPointer {
  return isObject(value) && ['fingerprint', 'request_id', 'created_at'].every((f) => typeof value[f] === 'string');
}

const live = (pointer: KeyPointer, now: Date) => now.getTime() - Date.parse(pointer.created_at) < KEY_RETENTION_MS;

/**
 * The request an idempotency key names, created with a new time-ordered id when the key is new (or
 * its 24 hours are over); `reused` when it names a request with another body.
 */
export async function requestForKey(
  store: ProposalsStore,
  idempotencyKey: string,
  fingerprint: string,
  now: () => Date,
): Promise<{ kind: 'request'; pointer: KeyPointer; key: string; created: boolean } | { kind: 'reused' }> {
  const keyHash = hash('sha256', idempotencyKey);
  const key = pointerKey(keyHash);
  // A refused write means another pointer appeared: read again (a damaged one must not loop forever).
  for (let tries = 0; tries < 3; tries++) {
    const at = now();
    const found = await store.read(key);
    if (found !== null && !isPointer(found.value)) throw new StoreUnavailable('claim', 'malformed');
    const current = found?.value as KeyPointer | undefined;
    if (current !== undefined && live(current, at)) {
      if (current.fingerprint !== fingerprint) return { kind: 'reused' };
      return { kind: 'request', pointer: current, key, created: false };
    }
    // A key first used in its day bucket keeps its request (until that pointer's 24 hours are over).
    const legacy = found === null ? await liveLegacyPointer(store, keyHash, at) : undefined;
    const pointer = legacy ?? { fingerprint, request_id: timeOrderedId(at), created_at: at.toISOString() };
    const written = await store.writeIf(key, pointer, found ? { ifVersion: found.version } : { ifNew: true });
    if (written === null) continue;
    if (pointer.fingerprint !== fingerprint) return { kind: 'reused' };
    return { kind: 'request', pointer, key, created: legacy === undefined };
  }
  throw new StoreUnavailable('claim', 'contended');
}

async function liveLegacyPointer(store: ProposalsStore, keyHash: string, at: Date) {
  const found = await Promise.all(
    [at.getTime() - DAY_MS, at.getTime()].map(async (ms) => (await store.read(legacyKey(keyHash, ms)))?.value),
  );
  return found.filter(isPointer).find((pointer) => live(pointer, at));
}

/** Day-bucket pointers (the release before this one) under `keys/<year>-`: hashes hold no `-`, so only they list. */
export async function legacyPointers(store: ProposalsStore, now: Date, limit: number): Promise<string[]> {
  const year = now.getUTCFullYear();
  const keys: string[] = [];
  for (const y of [year - 1, year]) {
    // Only those past their 24 hours (a day bucket older than yesterday).
    const oldest = legacyKey('', now.getTime() - DAY_MS);
    keys.push(...(await store.listWhile(`${POINTERS_PREFIX}${y}-`, (k) => k < oldest && keys.length < limit)));
  }
  return keys.slice(0, limit);
}

/** Deletes a pointer only while it names `requestId` (erasure and retention of a request). */
export async function removePointer(store: ProposalsStore, key: string, requestId: string): Promise<boolean> {
  const value = (await store.read(key))?.value;
  if (!isPointer(value) || value.request_id !== requestId) return false;
  await store.remove(key);
  return true;
}
