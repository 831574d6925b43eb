/** Stored requests read without a lease (the inbox); the lease holder reads and writes one through record-lease.ts. */
import { RECORDS_PREFIX, type ProposalRecord } from '../submit/record.ts';
import type { ProposalsStore } from './blobs.ts';
import { readVersioned } from './record-lease.ts';

/** A stored request, or null. */
export async function readRecord(store: ProposalsStore, requestId: string): Promise<ProposalRecord | null> {
  return (await readVersioned(store, requestId))?.record ?? null;
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
