/**
 * Reads and writes one stored request for the invocation that holds its key's lease. Every
 * write is conditional on the ETag of the version read or written before, so an invocation
 * whose lease was taken over cannot overwrite newer progress: it stops with LeaseLostError.
 */
import type { Store } from '@netlify/blobs';
import { LeaseLostError, type KeyLease } from './key-entry.ts';
import { isProposalRecord, recordKey, type ProposalRecord } from './record.ts';

export class RecordStore {
  #etag: string | undefined;

  private readonly store: Store;
  private readonly lease: KeyLease;

  constructor(store: Store, lease: KeyLease) {
    this.store = store;
    this.lease = lease;
  }

  /** The stored request, or null when none is stored (or what is stored is unreadable). */
  async load(requestId: string): Promise<ProposalRecord | null> {
    const found = await this.store.getWithMetadata(recordKey(requestId), { type: 'json' });
    const data: unknown = found?.data;
    if (!found || !isProposalRecord(data)) return null;
    this.#etag = found.etag;
    return data;
  }

  /** Stores a new request; when one is already there (a dead owner got that far), that one wins. */
  async create(record: ProposalRecord): Promise<ProposalRecord> {
    this.lease.assertHeld();
    const write = await this.store.setJSON(recordKey(record.request_id), record, { onlyIfNew: true });
    if (write.modified) {
      this.#etag = write.etag;
      return record;
    }
    const stored = await this.load(record.request_id);
    if (stored === null) throw new LeaseLostError();
    return stored;
  }

  async update(record: ProposalRecord): Promise<ProposalRecord> {
    this.lease.assertHeld();
    const options = this.#etag === undefined ? { onlyIfNew: true as const } : { onlyIfMatch: this.#etag };
    const write = await this.store.setJSON(recordKey(record.request_id), record, options);
    if (!write.modified) throw new LeaseLostError();
    this.#etag = write.etag;
    return record;
  }
}
