/**
 * Tallies: events counted in order, once each, so an event knows its place ("the 5th request from
 * this address in 24 hours") and a retry of the same event gets the place it got before; with a
 * limit, only up to it ("at most 500 confirmation emails a day"). Each tally is one blob changed
 * only by compare-and-swap, so simultaneous invocations never share a place or pass a limit.
 */
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../submit/fingerprint.ts';
import { isObject } from '../submit/record.ts';
import { StoreUnavailable, type ProposalsStore } from './blobs.ts';
import { STORE_LIMITS } from './limits.ts';

const TALLIES_PREFIX = 'tallies/';
/** Events remembered by id per tally; past this a tally only counts (places stay exact, a retry may count again). */
const KEEP_IDS = 1_000;
/** A tally whose newest event is older than this holds nothing any window still needs. */
const TALLY_KEEP_MS = 48 * 3_600_000;

interface TallyValue {
  /** Remembered events, oldest first. */
  events: { id: string; at: string; flagged?: boolean }[];
  /** Events counted but no longer remembered by id (beyond KEEP_IDS), and how many of them were flagged. */
  more: number;
  more_flagged: number;
}

/** Blob key of a tally: a hash, so an email address never appears in a key name. */
const tallyKey = (name: string) => `${TALLIES_PREFIX}${sha256Hex(name)}`;

export interface TallyOptions {
  /** A sliding window: events older than this are forgotten first. Omit it when `name` names its window (an hour). */
  windowMs?: number;
  /** Marks the event, so tallyOf can say how many flagged events there were. */
  flagged?: boolean;
  /** Most events counted: a new event past it is not written and gets place `limit + 1`, `fresh` false. */
  limit?: number;
  now?: Date;
}

/**
 * Counts `eventId` under `name` and returns its place, from 1, and whether it was counted now.
 * Counting the same event again returns the same place and changes nothing. Throws
 * StoreUnavailable when the store fails or the tally stays contended for STORE_LIMITS.tallyMaxAttempts writes.
 */
export async function tallyEvent(
  store: ProposalsStore,
  name: string,
  eventId: string,
  options: TallyOptions = {},
): Promise<{ place: number; fresh: boolean }> {
  const now = options.now ?? new Date();
  const key = tallyKey(name);
  for (let attempt = 1; attempt <= STORE_LIMITS.tallyMaxAttempts; attempt++) {
    const found = await store.read(key);
    const value = readTally(found?.value, now, options.windowMs);
    const index = value.events.findIndex((event) => event.id === eventId);
    if (index >= 0) return { place: value.more + index + 1, fresh: false };
    const place = value.more + value.events.length + 1;
    if (options.limit !== undefined && place > options.limit) return { place, fresh: false };
    const events = [...value.events, { id: eventId, at: now.toISOString(), ...(options.flagged && { flagged: true }) }];
    const overflow = Math.max(0, events.length - KEEP_IDS);
    const next: TallyValue = {
      events: events.slice(overflow),
      more: value.more + overflow,
      more_flagged: value.more_flagged + events.slice(0, overflow).filter((e) => e.flagged === true).length,
    };
    const written = await store.writeIf(key, next, found ? { ifVersion: found.version } : { ifNew: true });
    if (written !== null) return { place, fresh: true };
    // Another event took this place between our read and our write: read again, a little later
    // at random, so twenty writers do not retry in step.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * Math.min(attempt, 5)));
  }
  throw new StoreUnavailable('count', 'contended');
}

/**
 * Counts one more event under `key` in the current window if fewer than `limit` are counted: a
 * tally of the window (windows are aligned to multiples of `windowMs` since the epoch, so a UTC
 * day for 86 400 000), each call a new event. `count` includes this event when allowed.
 */
export async function countEventWithinLimit(
  store: ProposalsStore,
  key: string,
  { limit, windowMs, now = new Date() }: { limit: number; windowMs: number; now?: Date },
): Promise<{ allowed: boolean; count: number; resetAt: string }> {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  const name = `${key}@${new Date(start).toISOString()}`;
  const { place, fresh } = await tallyEvent(store, name, randomUUID(), { limit, now });
  return { allowed: fresh, count: fresh ? place : place - 1, resetAt: new Date(start + windowMs).toISOString() };
}

/**
 * How many events the tally holds in its window, and how many of those after the first `skip`
 * were flagged (the digest's "of the requests past the limit, this many look suspect").
 */
export async function tallyOf(
  store: ProposalsStore,
  name: string,
  options: { skip?: number; windowMs?: number; now?: Date } = {},
): Promise<{ count: number; flaggedAfter: number }> {
  const skip = options.skip ?? 0;
  const found = await store.read(tallyKey(name));
  const value = readTally(found?.value, options.now ?? new Date(), options.windowMs);
  // Events no longer remembered by id come first; their flags are known only as a total.
  const remembered = value.events.slice(Math.max(0, skip - value.more)).filter((e) => e.flagged === true).length;
  return {
    count: value.more + value.events.length,
    flaggedAfter: remembered + (skip < value.more ? value.more_flagged : 0),
  };
}

/** Deletes the tally `name` (erasure of a person's data: their address's tally goes with their requests). */
export async function forgetTally(store: ProposalsStore, name: string): Promise<boolean> {
  const key = tallyKey(name);
  if ((await store.read(key)) === null) return false;
  await store.remove(key);
  return true;
}

/**
 * Deletes tallies whose newest event is older than TALLY_KEEP_MS (the sweep's housekeeping, so
 * the store keeps no per-address trace longer than the limits need). An event counted between
 * the read and the delete goes with it: at most one extra email for that address.
 */
export function deleteStaleTallies(store: ProposalsStore, now: Date, budgetMs: number): Promise<number> {
  return store.scan(TALLIES_PREFIX, budgetMs, async (key) => {
    const times = readTally((await store.read(key))?.value, now)
      .events.map((e) => Date.parse(e.at))
      .filter((ms) => !Number.isNaN(ms));
    if (now.getTime() - Math.max(0, ...times) < TALLY_KEEP_MS) return false;
    await store.remove(key);
    return true;
  });
}

/**
 * The stored tally, less the events older than a sliding `windowMs`; once remembered events age
 * out, so have the older uncounted ones.
 */
function readTally(value: unknown, now: Date, windowMs?: number): TallyValue {
  if (!isObject(value) || !Array.isArray(value['events'])) return { events: [], more: 0, more_flagged: 0 };
  const stored = (value['events'] as unknown[]).flatMap((e) =>
    isObject(e) && typeof e['id'] === 'string' && typeof e['at'] === 'string'
      ? [{ id: e['id'], at: e['at'], ...(e['flagged'] === true && { flagged: true }) }]
      : [],
  );
  const events = stored.filter((e) => windowMs === undefined || Date.parse(e.at) > now.getTime() - windowMs);
  const count = (n: unknown) =>
    events.length === stored.length && typeof n === 'number' && Number.isFinite(n) ? n : 0;
  return { events, more: count(value['more']), more_flagged: count(value['more_flagged']) };
}
