/** Stored requests read without a lease; the lease holder reads and writes one through its KeyLease. */
import { isProposalRecord, recordKey, RECORDS_PREFIX, type ProposalRecord } from '../submit/record.ts';
import type { ProposalsStore } from './blobs.ts';

/** A stored request (the sweep's first look, the inbox), or null. */
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
