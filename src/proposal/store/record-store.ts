/**
 * One stored request, for the invocation holding its key's lease. Every write is conditional on
 * the version seen before, so a taken-over invocation cannot overwrite newer progress.
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

  /** As the store last confirmed it: a reply after a failed write claims no more. */
  get stored(): ProposalRecord | null {
    return this.#stored;
  }

  async load(requestId: string): Promise<ProposalRecord | null> {
    const found = await this.#store.read(recordKey(requestId));
    if (!found || !isProposalRecord(found.value)) return null;
    return this.#confirmed(found.value, found.version);
  }

  /** When a request is already there (a dead owner got that far), that one wins. */
  async create(record: ProposalRecord): Promise<ProposalRecord> {
    this.#lease.assertHeld();
    const version = await this.#store.writeIf(recordKey(record.request_id), record, { ifNew: true });
    if (version !== null) return this.#confirmed(record, version);
    const stored = await this.load(record.request_id);
    if (stored === null) throw new LeaseLostError();
    return stored;
  }

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

/** Unchecked: the inbox script checks their shape. */
export async function readAllRecords(store: ProposalsStore): Promise<unknown[]> {
  const values: unknown[] = [];
  await store.scan(RECORDS_PREFIX, Infinity, async (key) => {
    const found = await store.read(key);
    if (found) values.push(found.value);
    return true;
  });
  return values;
}
