/**
 * The blob that owns an Idempotency-Key: who works on it, its request and, once nothing is owed,
 * the answer to replay. Every write is conditional, so two invocations never both own a key
 * (patches/@netlify+blobs+*.patch makes the local Blobs server atomic, as production is).
 */
import { hash, randomUUID } from 'node:crypto';
import { isObject, isProposalRecord, recordKey, type ProposalRecord } from '../submit/record.ts';
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import type { ProposalsStore, Version, WriteCondition } from './blobs.ts';

/** A lease not renewed for this long belongs to a dead invocation: the next retry takes it over. */
export const LEASE_STALE_MS = 8_000;
const LEASE_RENEW_MS = 2_000;

export interface StoredReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

interface KeyEntry {
  fingerprint: string;
  request_id: string;
  received_at: string;
  created_at: string;
  /** pending: work (CRM delivery, email) is owed to the next retry; final: `reply` is replayed. */
  state: 'running' | 'pending' | 'final';
  locked_at?: string;
  reply?: StoredReply;
}

/** A hash, so the raw key never appears in a key name. */
export function keyEntryKey(idempotencyKey: string): string {
  return `idempotency/${hash('sha256', idempotencyKey)}`;
}

/** The entry the sweep leases for a request whose own key entry expired (or was reused). */
export function requestEntryKey(requestId: string): string {
  return `idempotency/request-${requestId}`;
}

async function take(
  store: ProposalsStore,
  entryKey: string,
  entry: KeyEntry,
  condition: WriteCondition,
  now: () => Date,
): Promise<KeyLease | null> {
  const version = await store.writeIf(entryKey, entry, condition);
  return version === null ? null : new KeyLease(store, entryKey, entry, version, now);
}

function opened(fingerprint: string, request_id: string, received_at: string, at: string): KeyEntry {
  return { fingerprint, request_id, received_at, created_at: at, state: 'running', locked_at: at };
}

function rerun({ reply: _reply, ...entry }: KeyEntry, at: string): KeyEntry {
  return { ...entry, state: 'running', locked_at: at };
}

/**
 * The sweep's way to the lease the sender's retries take: the request's own key entry while it is
 * live and names this request, else its synthetic entry. `final`: nothing is owed (a stale open
 * marker); `busy`: someone holds the lease or moved first.
 */
export async function claimForRequest(
  store: ProposalsStore,
  request: { request_id: string; received_at: string; idempotency_entry?: string },
  now: () => Date,
): Promise<{ kind: 'owner'; lease: KeyLease } | { kind: 'final' } | { kind: 'busy' }> {
  const at = now().toISOString();
  const synthetic = requestEntryKey(request.request_id);
  for (const entryKey of new Set([request.idempotency_entry ?? synthetic, synthetic])) {
    const found = await store.read(entryKey);
    const entry = found?.value;
    const live =
      found &&
      isKeyEntry(entry) &&
      entry.request_id === request.request_id &&
      age(entry.created_at, now()) < KEY_RETENTION_MS;
    let lease: KeyLease | null;
    if (live) {
      if (entry.state === 'final') return { kind: 'final' };
      if (entry.state === 'running' && age(entry.locked_at, now()) < LEASE_STALE_MS) return { kind: 'busy' };
      lease = await take(store, entryKey, rerun(entry, at), { ifVersion: found.version }, now);
    } else if (entryKey === synthetic) {
      const created = opened('', request.request_id, request.received_at, at);
      lease = await take(store, entryKey, created, found ? { ifVersion: found.version } : { ifNew: true }, now);
    } else continue;
    return lease ? { kind: 'owner', lease } : { kind: 'busy' };
  }
  return { kind: 'busy' };
}

/**
 * Claims an Idempotency-Key for a submit. `lost`: another invocation changed the entry between our
 * read and write; read again. `tryCreate: false` when polling a busy key: no doomed write.
 */
export async function claimKey(
  store: ProposalsStore,
  entryKey: string,
  fingerprint: string,
  now: () => Date,
  tryCreate = true,
): Promise<
  /** `fresh`: the entry was just created, so no request record exists yet. */
  | { kind: 'owner'; lease: KeyLease; fresh: boolean }
  | { kind: 'replay'; reply: StoredReply }
  | { kind: 'reused' | 'busy' | 'lost' }
> {
  const at = now().toISOString();
  const newEntry = () => opened(fingerprint, randomUUID(), at, at);
  // Most keys are new: create first, read only when that fails.
  const created = tryCreate ? await take(store, entryKey, newEntry(), { ifNew: true }, now) : null;
  if (created) return { kind: 'owner', lease: created, fresh: true };

  const found = await store.read(entryKey);
  if (!found) return { kind: 'lost' };
  const existing = found.value;
  if (!isKeyEntry(existing) || age(existing.created_at, now()) >= KEY_RETENTION_MS) {
    const lease = await take(store, entryKey, newEntry(), { ifVersion: found.version }, now);
    return lease ? { kind: 'owner', lease, fresh: true } : { kind: 'lost' };
  }
  if (existing.fingerprint !== fingerprint) return { kind: 'reused' };
  if (existing.state === 'final' && existing.reply !== undefined) return { kind: 'replay', reply: existing.reply };
  if (existing.state === 'running' && age(existing.locked_at, now()) < LEASE_STALE_MS) return { kind: 'busy' };
  const lease = await take(store, entryKey, rerun(existing, at), { ifVersion: found.version }, now);
  return lease ? { kind: 'owner', lease, fresh: false } : { kind: 'lost' };
}

/** Another invocation took the lease over: stop before any further effect. */
export class LeaseLostError extends Error {
  constructor() {
    super('The idempotency lease was taken over by another invocation.');
    this.name = 'LeaseLostError';
  }
}

/**
 * Renewed in the background; checked before each effect that must happen once (CRM delivery, email,
 * record write). The request's record is written through it, each write conditional on the version
 * seen before, so a taken-over invocation cannot overwrite newer progress.
 */
export class KeyLease {
  #version: Version;
  #lost = false;
  #timer: ReturnType<typeof setInterval>;
  /** Renewals and the final write run one after another, each with the ETag of the one before. */
  #queue: Promise<unknown> = Promise.resolve();
  #record: ProposalRecord | null = null;
  #recordVersion: Version | undefined;

  readonly entry: KeyEntry;
  readonly entryKey: string;
  readonly #store: ProposalsStore;

  constructor(store: ProposalsStore, entryKey: string, entry: KeyEntry, version: Version, now: () => Date) {
    this.#store = store;
    this.entryKey = entryKey;
    this.entry = entry;
    this.#version = version;
    this.#timer = setInterval(() => void this.#write({ ...entry, locked_at: now().toISOString() }), LEASE_RENEW_MS);
    // A pending renewal must not keep a process (a test, a script) alive.
    this.#timer.unref?.();
  }

  /** Stops renewing without a write (the store is failing): the lease goes stale after LEASE_STALE_MS. */
  abandon(): void {
    clearInterval(this.#timer);
  }

  assertHeld(): void {
    if (this.#lost) throw new LeaseLostError();
  }

  /** `final` stores the answer to replay; `pending` hands owed work to the next retry. */
  async release(outcome: { state: 'final'; reply: StoredReply } | { state: 'pending' }): Promise<boolean> {
    clearInterval(this.#timer);
    const { locked_at: _lockedAt, reply: _reply, ...rest } = this.entry;
    return this.#write({ ...rest, ...outcome });
  }

  /** The request as the store last confirmed it: a reply after a failed write claims no more. */
  get record(): ProposalRecord | null {
    return this.#record;
  }

  async loadRecord(): Promise<ProposalRecord | null> {
    const found = await this.#store.read(recordKey(this.entry.request_id));
    if (!found || !isProposalRecord(found.value)) return null;
    return this.#confirmed(found.value, found.version);
  }

  /** When the request is already there (a dead owner got that far), that one wins. */
  async createRecord(record: ProposalRecord): Promise<ProposalRecord> {
    this.assertHeld();
    const version = await this.#store.writeIf(recordKey(record.request_id), record, { ifNew: true });
    if (version !== null) return this.#confirmed(record, version);
    const stored = await this.loadRecord();
    if (stored === null) throw new LeaseLostError();
    return stored;
  }

  async updateRecord(record: ProposalRecord): Promise<ProposalRecord> {
    this.assertHeld();
    const condition = this.#recordVersion === undefined ? { ifNew: true as const } : { ifVersion: this.#recordVersion };
    const version = await this.#store.writeIf(recordKey(record.request_id), record, condition);
    if (version === null) throw new LeaseLostError();
    return this.#confirmed(record, version);
  }

  #confirmed(record: ProposalRecord, version: Version): ProposalRecord {
    this.#recordVersion = version;
    this.#record = record;
    return record;
  }

  #write(next: KeyEntry): Promise<boolean> {
    const run = this.#queue.then(async () => {
      if (this.#lost) return false;
      // A store failure (StoreUnavailable) is not a lost lease: the next renewal tries again.
      const version = await this.#store
        .writeIf(this.entryKey, next, { ifVersion: this.#version })
        .catch(() => undefined);
      if (version === null) this.#lost = true;
      else if (version !== undefined) this.#version = version;
      return Boolean(version);
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
    ['fingerprint', 'request_id', 'received_at', 'created_at'].every((field) => typeof value[field] === 'string') &&
    ['running', 'pending', 'final'].some((state) => value['state'] === state) &&
    (value['reply'] === undefined || isStoredReply(value['reply']))
  );
}

function isStoredReply(value: unknown): value is StoredReply {
  return isObject(value) && typeof value['status'] === 'number' && isObject(value['headers']) && 'body' in value;
}
