/**
 * The blob that owns an Idempotency-Key: who is working on it, which request it created and,
 * once settled, the final answer to replay. Claimed with Blobs conditional writes so two
 * function instances cannot both deliver one submission.
 */
import { randomUUID } from 'node:crypto';
import type { Store } from '@netlify/blobs';
import { sha256Hex } from './fingerprint.ts';
import { logEvent } from './log.ts';
import { isObject } from './record.ts';

/** Keys are honoured for 24 hours; after that a reuse starts a new submission. */
export const KEY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * A lock older than this belongs to an instance that died. It exceeds the platform's 60 s limit
 * on a function run, so a holder still delivering (up to 30 s) or emailing is never taken over.
 */
export const LOCK_STALE_MS = 90_000;

export interface StoredReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface KeyEntry {
  /** requestFingerprint of the payload first sent with this key. */
  fingerprint: string;
  /** Stable across retries, so a retry continues the same stored request. */
  request_id: string;
  received_at: string;
  /** Start of the 24 h retention. */
  created_at: string;
  /** running: an instance holds the lock; pending: stored, CRM not reached yet; final: answer stored. */
  state: 'running' | 'pending' | 'final';
  locked_at?: string;
  reply?: StoredReply;
}

export type Claim =
  /**
   * This call holds the lock; `etag` is of our own write, to settle it conditionally. `fresh`:
   * the entry was just created, so no request record can exist for it yet.
   */
  | { kind: 'owner'; entry: KeyEntry; etag: string | undefined; fresh: boolean }
  | { kind: 'replay'; reply: StoredReply }
  | { kind: 'reused' }
  | { kind: 'busy' }
  /** Another instance changed the entry between our read and our write; read again. */
  | { kind: 'lost' };

/** Blob key of an Idempotency-Key: a hash, so the raw key never appears in a key name. */
export function keyEntryKey(idempotencyKey: string): string {
  return `idempotency/${sha256Hex(idempotencyKey)}`;
}

/** `tryCreate: false` when the entry is known to exist (polling a busy key): read without a doomed write. */
export async function claimKey(store: Store, entryKey: string, fingerprint: string, now: Date, tryCreate = true): Promise<Claim> {
  const at = now.toISOString();
  const newEntry = (): KeyEntry => ({
    fingerprint,
    request_id: randomUUID(),
    received_at: at,
    created_at: at,
    state: 'running',
    locked_at: at,
  });
  // Most keys are new: create the entry first and read only when it already exists.
  if (tryCreate) {
    const created = newEntry();
    const first = await store.setJSON(entryKey, created, { onlyIfNew: true });
    if (first.modified) return { kind: 'owner', entry: created, etag: first.etag, fresh: true };
  }

  const found = await store.getWithMetadata(entryKey, { type: 'json' });
  // Gone since the failed create (or never there when polling): start over with a create.
  if (!found) return { kind: 'lost' };
  const data: unknown = found.data;
  const existing = isKeyEntry(data) && age(data.created_at, now) < KEY_RETENTION_MS ? data : null;
  if (existing === null) {
    // An expired or unreadable entry is replaced by a new submission with its own request id.
    const entry = newEntry();
    const write = await writeOver(store, entryKey, entry, found.etag);
    return write.modified ? { kind: 'owner', entry, etag: write.etag, fresh: true } : { kind: 'lost' };
  }
  if (existing.fingerprint !== fingerprint) return { kind: 'reused' };
  if (existing.state === 'final' && existing.reply !== undefined) return { kind: 'replay', reply: existing.reply };
  if (existing.state === 'running' && age(existing.locked_at, now) < LOCK_STALE_MS) return { kind: 'busy' };

  // Pending (the CRM was not reached) or a dead holder: continue the same request.
  const { reply: _reply, ...rest } = existing;
  const entry: KeyEntry = { ...rest, state: 'running', locked_at: at };
  const write = await writeOver(store, entryKey, entry, found.etag);
  return write.modified ? { kind: 'owner', entry, etag: write.etag, fresh: false } : { kind: 'lost' };
}

/** Releases the lock: `final` stores the answer to replay, `pending` lets a retry deliver again. */
export async function settleKey(
  store: Store,
  entryKey: string,
  owned: { entry: KeyEntry; etag: string | undefined },
  outcome: { state: 'final'; reply: StoredReply } | { state: 'pending' },
): Promise<void> {
  const { locked_at: _lockedAt, reply: _reply, ...rest } = owned.entry;
  const next: KeyEntry = outcome.state === 'final' ? { ...rest, state: 'final', reply: outcome.reply } : { ...rest, state: 'pending' };
  const write = await writeOver(store, entryKey, next, owned.etag);
  if (!write.modified) {
    // Someone took over a lock they judged stale. The stored request is what counts; log it.
    logEvent('idempotency_lock_lost', { request_id: owned.entry.request_id });
  }
}

/**
 * Conditional on the ETag when we have one. The local BlobsServer sends no ETag on reads, so
 * there the write is unconditional and the in-process key mutex is what serialises it.
 */
async function writeOver(store: Store, key: string, entry: KeyEntry, etag: string | undefined) {
  return etag ? store.setJSON(key, entry, { onlyIfMatch: etag }) : store.setJSON(key, entry);
}

function age(iso: string | undefined, now: Date): number {
  const at = iso === undefined ? Number.NaN : Date.parse(iso);
  // Unreadable times count as old, so a damaged entry cannot block a key forever.
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : now.getTime() - at;
}

function isKeyEntry(value: unknown): value is KeyEntry {
  return (
    isObject(value) &&
    typeof value['fingerprint'] === 'string' &&
    typeof value['request_id'] === 'string' &&
    typeof value['received_at'] === 'string' &&
    typeof value['created_at'] === 'string' &&
    (value['state'] === 'running' || value['state'] === 'pending' || value['state'] === 'final') &&
    (value['reply'] === undefined || isStoredReply(value['reply']))
  );
}

function isStoredReply(value: unknown): value is StoredReply {
  return isObject(value) && typeof value['status'] === 'number' && isObject(value['headers']) && 'body' in value;
}
