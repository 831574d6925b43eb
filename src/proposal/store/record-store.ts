/**
 * Reads and writes one stored request for the invocation that holds its key's lease. Every
 * write is conditional on the version read or written before, so an invocation whose lease was
 * taken over cannot overwrite newer progress: it stops with LeaseLostError. `stored` is the
 * last version the store confirmed, so a reply after a failed write claims no more than that.
 */
import { isProposalRecord, recordKey, RECORDS_PREFIX, type ProposalRecord } from '../submit/record.ts';
import type { BlobStore, Version } from './blobs.ts';
import { LeaseLostError, type KeyLease } from './key-entry.ts';

export class RecordStore {
  #version: Version | undefined;
  #stored: ProposalRecord | null = null;

  private readonly store: BlobStore;
  private readonly lease: KeyLease;

  constructor(store: BlobStore, lease: KeyLease) {
    this.store = store;
    this.lease = lease;
  }

  /** The version of the request the store last confirmed (read or written), or null before any. */
  get stored(): ProposalRecord | null {
    return this.#stored;
  }

  /** The stored request, or null when none is stored (or what is stored is unreadable). */
  async load(requestId: string): Promise<ProposalRecord | null> {
    const found = await this.store.read(recordKey(requestId));
    const data: unknown = found?.value;
    if (!found || !isProposalRecord(data)) return null;
    this.#version = found.version;
    this.#stored = data;
    return data;
  }

  /** Stores a new request; when one is already there (a dead owner got that far), that one wins. */
  async create(record: ProposalRecord): Promise<ProposalRecord> {
    this.lease.assertHeld();
    const version = await this.store.writeIf(recordKey(record.request_id), record, { ifNew: true });
    if (version !== null) return this.#confirmed(record, version);
    const stored = await this.load(record.request_id);
    if (stored === null) throw new LeaseLostError();
    return stored;
  }

  /** Writes a new state of the request over the version this invocation last saw. */
  async update(record: ProposalRecord): Promise<ProposalRecord> {
    this.lease.assertHeld();
    const condition = this.#version === undefined ? { ifNew: true as const } : { ifVersion: this.#version };
    const version = await this.store.writeIf(recordKey(record.request_id), record, condition);
    if (version === null) throw new LeaseLostError();
    return this.#confirmed(record, version);
  }

  #confirmed(record: ProposalRecord, version: Version): ProposalRecord {
    this.#version = version;
    this.#stored = record;
    return record;
  }
}

/** A stored request read without a lease (the sweep's first look, the inbox), or null. */
export async function readRecord(store: BlobStore, requestId: string): Promise<ProposalRecord | null> {
  const found = await store.read(recordKey(requestId));
  const data: unknown = found?.value;
  return isProposalRecord(data) ? data : null;
}

/** Every stored value under requests/, as read (the inbox script checks their shape). */
export async function readAllRecords(store: BlobStore): Promise<unknown[]> {
  const keys = await store.list(RECORDS_PREFIX);
  const values: unknown[] = [];
  // A few reads at once: gentle on the Blobs API's rate limit.
  for (let i = 0; i < keys.length; i += 8) {
    const batch = keys.slice(i, i + 8).map(async (key) => (await store.read(key))?.value ?? null);
    values.push(...(await Promise.all(batch)).filter((value) => value !== null));
  }
  return values;
}
