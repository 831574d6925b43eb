/**
 * The blob that owns an Idempotency-Key: who is working on it, which request it created and,
 * once nothing is owed any more, the final answer to replay. Every write is conditional
 * (If-None-Match for a new key, If-Match with the ETag read for a change), so two invocations,
 * in one process or in many, can never both own a key. The local Blobs server is made atomic
 * for this by patches/@netlify+blobs+*.patch; Netlify Blobs is atomic in production. A write
 * whose outcome the store does not confirm throws StoreUnavailable (blobs.ts): never "mine".
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../submit/fingerprint.ts';
import { isObject } from '../submit/record.ts';
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import type { BlobStore, Version } from './blobs.ts';

/**
 * A lease not renewed for this long belongs to an invocation that died; the next retry takes
 * it over. The holder renews it every LEASE_RENEW_MS while it works, however long the CRM takes.
 */
export const LEASE_STALE_MS = 8_000;
export const LEASE_RENEW_MS = 2_000;

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
  /**
   * running: an invocation holds the lease; pending: work is owed (CRM delivery or the
   * confirmation email) and the next retry does it; final: nothing is owed, `reply` is replayed.
   */
  state: 'running' | 'pending' | 'final';
  /** Last renewal of the lease (running only). */
  locked_at?: string;
  reply?: StoredReply;
}

export type Claim =
  /** This call holds the lease. `fresh`: the entry was just created, so no request record exists yet. */
  | { kind: 'owner'; lease: KeyLease; fresh: boolean }
  | { kind: 'replay'; reply: StoredReply }
  | { kind: 'reused' }
  | { kind: 'busy' }
  /** Another invocation changed the entry between our read and our write; read again. */
  | { kind: 'lost' };

/** Blob key of an Idempotency-Key: a hash, so the raw key never appears in a key name. */
export function keyEntryKey(idempotencyKey: string): string {
  return `idempotency/${sha256Hex(idempotencyKey)}`;
}

/**
 * The entry the sweep leases for a request whose own key entry is gone (deleted after 24 h)
 * or now belongs to another request (the key expired and was used again). Only sweeps use it.
 */
export function requestEntryKey(requestId: string): string {
  return `idempotency/request-${requestId}`;
}

export type RequestClaim =
  | { kind: 'owner'; lease: KeyLease }
  /** The entry says nothing is owed: the open marker is stale. */
  | { kind: 'final' }
  /** Someone (the sender's retry, another sweep) holds the lease or moved first. */
  | { kind: 'busy' };

/**
 * The sweep's way to the same lease the sender's retries take: the request's own key entry while
 * it is live and still names this request, else the request's synthetic entry (created if need be).
 */
export async function claimForRequest(
  store: BlobStore,
  request: { request_id: string; received_at: string; idempotency_entry?: string },
  now: () => Date,
): Promise<RequestClaim> {
  const at = now().toISOString();
  const synthetic = requestEntryKey(request.request_id);
  const candidates =
    request.idempotency_entry !== undefined && request.idempotency_entry !== synthetic
      ? [request.idempotency_entry, synthetic]
      : [synthetic];
  for (const entryKey of candidates) {
    const found = await store.read(entryKey);
    const data: unknown = found?.value;
    const usable =
      isKeyEntry(data) && data.request_id === request.request_id && age(data.created_at, now()) < KEY_RETENTION_MS
        ? data
        : null;
    if (usable === null) {
      if (entryKey !== synthetic) continue;
      const entry: KeyEntry = {
        fingerprint: '',
        request_id: request.request_id,
        received_at: request.received_at,
        created_at: at,
        state: 'running',
        locked_at: at,
      };
      const version = await store.writeIf(entryKey, entry, found ? { ifVersion: found.version } : { ifNew: true });
      return version !== null
        ? { kind: 'owner', lease: new KeyLease(store, entryKey, entry, version, now) }
        : { kind: 'busy' };
    }
    if (usable.state === 'final') return { kind: 'final' };
    if (usable.state === 'running' && age(usable.locked_at, now()) < LEASE_STALE_MS) return { kind: 'busy' };
    const { reply: _reply, ...rest } = usable;
    const entry: KeyEntry = { ...rest, state: 'running', locked_at: at };
    if (!found) return { kind: 'busy' };
    const version = await store.writeIf(entryKey, entry, { ifVersion: found.version });
    return version !== null
      ? { kind: 'owner', lease: new KeyLease(store, entryKey, entry, version, now) }
      : { kind: 'busy' };
  }
  return { kind: 'busy' };
}

/** `tryCreate: false` when the entry is known to exist (polling a busy key): read without a doomed write. */
export async function claimKey(
  store: BlobStore,
  entryKey: string,
  fingerprint: string,
  now: () => Date,
  tryCreate = true,
): Promise<Claim> {
  const at = now().toISOString();
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
    const first = await store.writeIf(entryKey, created, { ifNew: true });
    if (first !== null)
      return { kind: 'owner', lease: new KeyLease(store, entryKey, created, first, now), fresh: true };
  }

  const found = await store.read(entryKey);
  // Gone since the failed create (or never there when polling): start over with a create.
  if (!found) return { kind: 'lost' };
  const data: unknown = found.value;
  const existing = isKeyEntry(data) && age(data.created_at, now()) < KEY_RETENTION_MS ? data : null;
  if (existing === null) {
    // An expired or unreadable entry is replaced by a new submission with its own request id.
    const entry = newEntry();
    const version = await store.writeIf(entryKey, entry, { ifVersion: found.version });
    return version !== null
      ? { kind: 'owner', lease: new KeyLease(store, entryKey, entry, version, now), fresh: true }
      : { kind: 'lost' };
  }
  if (existing.fingerprint !== fingerprint) return { kind: 'reused' };
  if (existing.state === 'final' && existing.reply !== undefined) return { kind: 'replay', reply: existing.reply };
  if (existing.state === 'running' && age(existing.locked_at, now()) < LEASE_STALE_MS) return { kind: 'busy' };

  // Work is owed (pending) or the holder died: continue the same request.
  const { reply: _reply, ...rest } = existing;
  const entry: KeyEntry = { ...rest, state: 'running', locked_at: at };
  const version = await store.writeIf(entryKey, entry, { ifVersion: found.version });
  return version !== null
    ? { kind: 'owner', lease: new KeyLease(store, entryKey, entry, version, now), fresh: false }
    : { kind: 'lost' };
}

/** Thrown when another invocation took the lease over: stop before any further effect. */
export class LeaseLostError extends Error {
  constructor() {
    super('The idempotency lease was taken over by another invocation.');
    this.name = 'LeaseLostError';
  }
}

/**
 * The lease on a key while one invocation works on it: renewed in the background, and checked
 * before each effect that must happen once (CRM delivery, email, record write).
 */
export class KeyLease {
  #version: Version;
  #lost = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** Renewals and the final write run one after another, each with the ETag of the one before. */
  #queue: Promise<unknown> = Promise.resolve();

  readonly entry: KeyEntry;
  /** Blob key of the entry this lease is on. */
  readonly entryKey: string;
  private readonly store: BlobStore;
  private readonly now: () => Date;

  constructor(store: BlobStore, entryKey: string, entry: KeyEntry, version: Version, now: () => Date) {
    this.store = store;
    this.entryKey = entryKey;
    this.entry = entry;
    this.now = now;
    this.#version = version;
    this.#timer = setInterval(
      () => void this.#write({ ...this.entry, locked_at: this.now().toISOString() }),
      LEASE_RENEW_MS,
    );
    // A pending renewal must not keep a process (a test, a script) alive.
    this.#timer.unref?.();
  }

  /** Stops renewing without a write (the store is failing): the lease goes stale after LEASE_STALE_MS. */
  abandon(): void {
    clearInterval(this.#timer);
  }

  /** Throws LeaseLostError once a renewal found the entry changed by someone else. */
  assertHeld(): void {
    if (this.#lost) throw new LeaseLostError();
  }

  /** Ends the lease: `final` stores the answer to replay; `pending` hands owed work to the next retry. */
  async release(outcome: { state: 'final'; reply: StoredReply } | { state: 'pending' }): Promise<boolean> {
    clearInterval(this.#timer);
    const { locked_at: _lockedAt, reply: _reply, ...rest } = this.entry;
    const next: KeyEntry =
      outcome.state === 'final' ? { ...rest, state: 'final', reply: outcome.reply } : { ...rest, state: 'pending' };
    return this.#write(next);
  }

  #write(next: KeyEntry): Promise<boolean> {
    const run = this.#queue.then(async () => {
      if (this.#lost) return false;
      let version: Version | null;
      try {
        version = await this.store.writeIf(this.entryKey, next, { ifVersion: this.#version });
      } catch {
        // The store failed (StoreUnavailable): not a lost lease; the next renewal tries again.
        return false;
      }
      if (version !== null) this.#version = version;
      else this.#lost = true;
      return version !== null;
    });
    this.#queue = run;
    return run;
  }
}

export function age(iso: string | undefined, now: Date): number {
  const at = iso === undefined ? Number.NaN : Date.parse(iso);
  // Unreadable times count as old, so a damaged entry cannot block a key forever.
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : now.getTime() - at;
}

export function isKeyEntry(value: unknown): value is KeyEntry {
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
