/**
 * Leased blobs: the one mutable blob of a piece of owed work (a request's `requests/<id>`, an hour's
 * digest), holding its state, what it owes and its lease. A lease is a deadline in the blob (the rule:
 * limits.ts, leaseMs); whoever finds it past may take it with a write conditional on the version it
 * read (If-Match), so one owner at a time does the owed work, and every write of that owner is
 * conditional on its own last one. No timer renews it: each write does.
 */
import { randomUUID } from 'node:crypto';
import type { ProposalsStore, Version } from './blobs.ts';
import { CLOCK_SKEW_MS, leaseMs, leftNeededMs } from './limits.ts';

/** A deadline, its owner's token and a nonce per write (so a read-back tells whose write landed). */
export type Lease = { token: string; until: string; write: string };

/** What the store needs of a leased value. */
export type Leased = { lease?: Lease };

/** Which blob holds values of one kind, and how to tell one when read back. */
export interface BlobKind<T extends Leased> {
  key: (id: string) => string;
  is: (value: unknown) => value is T;
}

/** Another owner took the work over (our lease ran out): stop before any further effect. */
export class LeaseLostError extends Error {
  constructor() {
    super('The lease was taken over by another owner.');
    this.name = 'LeaseLostError';
  }
}

/** A blob is there but is not what its name says: never taken for absent; an operator looks at it. */
export class UnreadableRecord extends Error {
  readonly key: string;
  constructor(key: string) {
    super(`The stored value at ${key} is not readable.`);
    this.name = 'UnreadableRecord';
    this.key = key;
  }
}

export interface Versioned<T> {
  record: T;
  version: Version;
}

/** The value and its version; null when absent; UnreadableRecord when something else is there. */
export async function readVersioned<T extends Leased>(
  store: ProposalsStore,
  kind: BlobKind<T>,
  id: string,
): Promise<Versioned<T> | null> {
  const key = kind.key(id);
  const found = await store.read(key);
  if (found === null) return null;
  if (!kind.is(found.value)) throw new UnreadableRecord(key);
  return { record: found.value, version: found.version };
}

/** Ms the lease still runs at `now` (0 when free), as any instance judges it: by wall time. */
export function leaseLeftMs(record: Leased, now: Date): number {
  const until = record.lease === undefined ? Number.NaN : Date.parse(record.lease.until);
  return Number.isNaN(until) ? 0 : Math.max(0, until - now.getTime());
}

/**
 * How long one owner may take the effects it starts: `effectMs`, the longest bound of them (CRM, SMTP,
 * chat); `monotonic`: the owner's own clock for what is left (performance.now unless a test moves it).
 */
export interface LeaseTerms {
  store: ProposalsStore;
  effectMs: number;
  now: () => Date;
  monotonic?: () => number;
}

export class RecordLease<T extends Leased> {
  #record: T;
  #version: Version;
  /** Where the owner's own lease ends on its monotonic clock. */
  #ends: number;
  readonly #token: string;
  readonly #terms: LeaseTerms;
  readonly #key: string;

  private constructor(terms: LeaseTerms, key: string, record: T, version: Version, token: string, ends: number) {
    this.#terms = terms;
    this.#key = key;
    this.#record = record;
    this.#version = version;
    this.#token = token;
    this.#ends = ends;
  }

  /**
   * Stores a new value with its lease held (`ifNew`), or takes the lease of a stored one whose deadline
   * passed (`ifVersion`, the version read): null when it is there already or another moved first.
   */
  static async take<T extends Leased>(
    terms: LeaseTerms,
    key: string,
    record: T,
    condition: { ifNew: true } | { ifVersion: Version },
  ): Promise<RecordLease<T> | null> {
    const token = randomUUID();
    const started = monotonic(terms);
    const next = leased(record, terms, token, false);
    const version = await terms.store.writeIf(key, next, condition);
    return version === null ? null : new RecordLease(terms, key, next, version, token, ownEnd(terms, started));
  }

  /** The value as the store last confirmed it: a reply claims no more. */
  get record(): T {
    return this.#record;
  }

  /**
   * Right before an effect bounded by `effectMs`: enough of the lease left to do it and record it, on
   * the owner's monotonic clock; else a write renews the lease first. LeaseLostError when even that fails.
   */
  async beforeEffect(effectMs: number): Promise<void> {
    const needed = leftNeededMs(this.#terms.store.timeFactor, effectMs);
    if (this.#ends - monotonic(this.#terms) >= needed) return;
    await this.save(this.#record);
    if (this.#ends - monotonic(this.#terms) < needed) throw new LeaseLostError();
  }

  /** Stores `record` with the lease renewed; LeaseLostError when another owner wrote meanwhile. */
  save(record: T): Promise<T> {
    return this.#write(record, false);
  }

  /** Stores `record` with the lease given up, so a retry or the sweep need not wait for it. */
  release(record: T): Promise<T> {
    return this.#write(record, true);
  }

  async #write(record: T, released: boolean): Promise<T> {
    const started = monotonic(this.#terms);
    const next = leased(record, this.#terms, this.#token, released);
    const version = await this.#terms.store.writeIf(this.#key, next, { ifVersion: this.#version });
    if (version === null) throw new LeaseLostError();
    this.#version = version;
    this.#record = next;
    this.#ends = released ? started : ownEnd(this.#terms, started);
    return next;
  }
}

const monotonic = (terms: LeaseTerms) => (terms.monotonic ?? performance.now.bind(performance))();

/** The owner stops CLOCK_SKEW_MS before the deadline others read, measured from before its write. */
const ownEnd = (terms: LeaseTerms, started: number) =>
  started + leaseMs(terms.store.timeFactor, terms.effectMs) - CLOCK_SKEW_MS;

/** The deadline counts from before the write, so a slow write eats into its own lease, never past it. */
function leased<T extends Leased>(record: T, terms: LeaseTerms, token: string, released: boolean): T {
  const start = terms.now().getTime();
  const ms = released ? 0 : leaseMs(terms.store.timeFactor, terms.effectMs);
  // `write` makes every stored value unique, so a read-back can tell whether this write landed.
  const lease: Lease = { token, until: new Date(start + ms).toISOString(), write: randomUUID() };
  return { ...record, lease };
}
