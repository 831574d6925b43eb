/**
 * The one mutable blob of a request, `requests/<id>`: its state, what it owes and its lease; read
 * without a lease by the inbox. A lease
 * is a deadline in the record (the rule: limits.ts, leaseMs); whoever finds it past may take it with a
 * write conditional on the version it read (If-Match), so one owner at a time does the owed work, and
 * every write of that owner is conditional on its own last one. No timer renews it: each write does.
 */
import { randomUUID } from 'node:crypto';
import { isProposalRecord, recordKey, RECORDS_PREFIX, type Lease, type ProposalRecord } from '../submit/record.ts';
import type { ProposalsStore, Version } from './blobs.ts';
import { leaseMs, leftNeededMs } from './limits.ts';

/** Another owner took the request over (our lease ran out): stop before any further effect. */
export class LeaseLostError extends Error {
  constructor() {
    super('The lease of the request was taken over by another owner.');
    this.name = 'LeaseLostError';
  }
}

export interface VersionedRecord {
  record: ProposalRecord;
  version: Version;
}

export async function readVersioned(store: ProposalsStore, requestId: string): Promise<VersionedRecord | null> {
  const found = await store.read(recordKey(requestId));
  return found && isProposalRecord(found.value) ? { record: found.value, version: found.version } : null;
}

/** A stored request read without a lease (the inbox), or null. */
export async function readRecord(store: ProposalsStore, requestId: string): Promise<ProposalRecord | null> {
  return (await readVersioned(store, requestId))?.record ?? null;
}

/** Every stored request, unchecked (the inbox script checks their shape). */
export async function readAllRecords(store: ProposalsStore): Promise<unknown[]> {
  const values: unknown[] = [];
  await store.scan(RECORDS_PREFIX, Infinity, async (key) => Boolean(values.push((await store.read(key))?.value)));
  return values.filter((value) => value !== undefined);
}

/** Ms the record's lease still runs at `now` (0 when free). */
export function leaseLeftMs(record: ProposalRecord, now: Date): number {
  const until = record.lease === undefined ? Number.NaN : Date.parse(record.lease.until);
  return Number.isNaN(until) ? 0 : Math.max(0, until - now.getTime());
}

/** How long one owner may take the effects it starts: the longest of them (CRM or SMTP). */
export interface LeaseTerms {
  store: ProposalsStore;
  effectMs: number;
  now: () => Date;
}

export class RecordLease {
  #record: ProposalRecord;
  #version: Version;
  readonly #token: string;
  readonly #terms: LeaseTerms;

  private constructor(terms: LeaseTerms, record: ProposalRecord, version: Version, token: string) {
    this.#terms = terms;
    this.#record = record;
    this.#version = version;
    this.#token = token;
  }

  /**
   * Stores a new request with its lease held (`ifNew`), or takes the lease of a stored one whose
   * deadline passed (`ifVersion`, the version read): null when it is there already or another moved first.
   */
  static async take(
    terms: LeaseTerms,
    record: ProposalRecord,
    condition: { ifNew: true } | { ifVersion: Version },
  ): Promise<RecordLease | null> {
    const token = randomUUID();
    const next = leased(record, terms, token, false);
    const version = await terms.store.writeIf(recordKey(record.request_id), next, condition);
    return version === null ? null : new RecordLease(terms, next, version, token);
  }

  /** The request as the store last confirmed it: a reply claims no more. */
  get record(): ProposalRecord {
    return this.#record;
  }

  /** Enough lease left to start an effect and record it; else a write renews the lease first. */
  async makeTimeForEffect(): Promise<void> {
    const { store, effectMs, now } = this.#terms;
    if (leaseLeftMs(this.#record, now()) >= leftNeededMs(store.timeFactor, effectMs)) return;
    await this.save(this.#record);
    if (leaseLeftMs(this.#record, now()) < leftNeededMs(store.timeFactor, effectMs)) throw new LeaseLostError();
  }

  /** Stores `record` with the lease renewed; LeaseLostError when another owner wrote meanwhile. */
  save(record: ProposalRecord): Promise<ProposalRecord> {
    return this.#write(leased(record, this.#terms, this.#token, false));
  }

  /** Stores `record` with the lease given up, so a retry or the sweep need not wait for it. */
  release(record: ProposalRecord): Promise<ProposalRecord> {
    return this.#write(leased(record, this.#terms, this.#token, true));
  }

  async #write(next: ProposalRecord): Promise<ProposalRecord> {
    const version = await this.#terms.store.writeIf(recordKey(next.request_id), next, { ifVersion: this.#version });
    if (version === null) throw new LeaseLostError();
    this.#version = version;
    this.#record = next;
    return next;
  }
}

/** The deadline counts from before the write, so a slow write eats into its own lease, never past it. */
function leased(record: ProposalRecord, terms: LeaseTerms, token: string, released: boolean): ProposalRecord {
  const start = terms.now().getTime();
  const ms = released ? 0 : leaseMs(terms.store.timeFactor, terms.effectMs);
  // `write` makes every stored value unique, so a read-back can tell whether this write landed.
  const lease: Lease = { token, until: new Date(start + ms).toISOString(), write: randomUUID() };
  return { ...record, lease };
}
