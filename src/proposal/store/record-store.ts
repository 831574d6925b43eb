/**
 * Reads and writes one stored request for the invocation that holds its key's lease. Every
 * write is conditional on the version read or written before, so an invocation whose lease was
 * taken over cannot overwrite newer progress: it stops with LeaseLostError.
 */
import { isProposalRecord, recordKey, RECORDS_PREFIX, type ProposalRecord } from '../submit/record.ts';
import type { ProposalsStore, Version } from './blobs.ts';
import { LeaseLostError, type KeyLease } from './key-entry.ts';

export class RecordStore {
  #version: Version | undefined;
  #stored: ProposalRecord | null = null;
  readonly #store: ProposalsStore;
  readonly #lease: KeyLease;

  constructor(store: ProposalsStore, lease: KeyLease) {
    this.#store = store;
    this.#lease = lease;
  }

  /** The request as the store last confirmed it (read or written), or null before any: a reply after a failed write claims no more. */
  get stored(): ProposalRecord | null {
    return this.#stored;
  }

  /** The stored request, or null when none is stored (or what is stored is unreadable). */
  async load(requestId: string): Promise<ProposalRecord | null> {
    const found = await this.#store.read(recordKey(requestId));
    if (!found || !isProposalRecord(found.value)) return null;
    return this.#confirmed(found.value, found.version);
  }

  /** Stores a new request; when one is already there (a dead owner got that far), that one wins. */
  async create(record: ProposalRecord): Promise<ProposalRecord> {
    this.#lease.assertHeld();
    const version = await this.#store.writeIf(recordKey(record.request_id), record, { ifNew: true });
    if (version !== null) return this.#confirmed(record, version);
    const stored = await this.load(record.request_id);
    if (stored === null) throw new LeaseLostError();
    return stored;
  }

  /** Writes a new state of the request over the version this invocation last saw. */
  async update(record: ProposalRecord): Promise<ProposalRecord> {
    this.#lease.assertHeld();
    const condition = this.#version === undefined ? { ifNew: true as const } : { ifVersion: this.#version };
    const version = await this.#store.writeIf(recordKey(record.request_id), record, condition);
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
export async function readRecord(store: ProposalsStore, requestId: string): Promise<ProposalRecord | null> {
  const data = (await store.read(recordKey(requestId)))?.value;
  return isProposalRecord(data) ? data : null;
}

/** Every stored value under requests/, as read (the inbox script checks their shape). */
export async function readAllRecords(store: ProposalsStore): Promise<unknown[]> {
  const values: unknown[] = [];
  await store.scan(RECORDS_PREFIX, Infinity, async (key) => {
    const found = await store.read(key);
    if (found) values.push(found.value);
    return true;
  });
  return values;
}
