/**
 * What an idempotency key names: one pointer per key, `keys/<sha256 of the key>` = `{ fingerprint,
 * request_id, created_at }`, created if new, replaced (If-Match) once its KEY_RETENTION_MS are over,
 * deleted with its request. Every first submit of a key meets the same blob, so two of them, whatever
 * the time of day or their clocks, never get two request ids: one create wins, the other reads it.
 */
import { hash } from 'node:crypto';
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import { isObject, StoreUnavailable, type ProposalsStore } from './blobs.ts';
import { timeOrderedId } from './ids.ts';

export type KeyPointer = { fingerprint: string; request_id: string; created_at: string };

const pointerKey = (idempotencyKey: string) => `keys/${hash('sha256', idempotencyKey)}`;
const isPointer = (value: unknown): value is KeyPointer =>
  isObject(value) && ['fingerprint', 'request_id', 'created_at'].every((f) => typeof value[f] === 'string');

/** The request a key names, with a new time-ordered id when the key is new or its 24 hours are over. */
export async function requestForKey(
  store: ProposalsStore,
  idempotencyKey: string,
  fingerprint: string,
  now: () => Date,
): Promise<{ pointer: KeyPointer; key: string } | 'reused'> {
  const key = pointerKey(idempotencyKey);
  // A refused write means another pointer appeared: read again (a damaged one must not loop forever).
  for (let tries = 0; tries < 3; tries++) {
    const at = now();
    const found = await store.read(key);
    if (found !== null && !isPointer(found.value)) throw new StoreUnavailable('claim', 'malformed');
    const current = found?.value as KeyPointer | undefined;
    if (current !== undefined && at.getTime() - Date.parse(current.created_at) < KEY_RETENTION_MS)
      return current.fingerprint === fingerprint ? { pointer: current, key } : 'reused';
    const pointer = { fingerprint, request_id: timeOrderedId(at), created_at: at.toISOString() };
    if ((await store.writeIf(key, pointer, found ? { ifVersion: found.version } : { ifNew: true })) !== null)
      return { pointer, key };
  }
  throw new StoreUnavailable('claim', 'contended');
}

/** Deletes a pointer only while it names `requestId` (erasure and retention of that request). */
export async function removePointer(store: ProposalsStore, key: string, requestId: string): Promise<void> {
  const value = (await store.read(key))?.value;
  if (isPointer(value) && value.request_id === requestId) await store.remove(key);
}

/** Whether the key names a request within its 24 hours (its request stored, or about to be). */
export async function keyInUse(store: ProposalsStore, idempotencyKey: string, now: Date): Promise<boolean> {
  const value = (await store.read(pointerKey(idempotencyKey)))?.value;
  return isPointer(value) && now.getTime() - Date.parse(value.created_at) < KEY_RETENTION_MS;
}
