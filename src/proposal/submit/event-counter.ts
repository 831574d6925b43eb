/**
 * Counts events within a time window, exactly, with the store's conditional writes: each
 * counter is one blob read with its ETag and written back If-Match (If-None-Match when new), so
 * of any number of simultaneous counters every event gets its own ordinal; a writer that lost
 * the race reads again and retries. Counting is idempotent per event id: a retry of the same
 * request gets the ordinal it got before, and is not counted twice.
 */
import type { Store } from '@netlify/blobs';
import { isObject } from './record.ts';

/** Prefix of every counter blob; the counters live beside the requests in the proposals store. */
export const COUNTERS_PREFIX = 'counters/';

/** Events remembered by id per counter; past this a counter only counts (ordinals stay exact, retries may count again). */
const KEEP_IDS = 1_000;
/** A race lost this often in a row means the store is not settling: give up rather than spin. */
const MAX_ROUNDS = 60;

interface CounterBlob {
  /** Remembered events, oldest first. */
  events: { id: string; at: string; flagged?: boolean }[];
  /** Events counted but no longer remembered by id (beyond KEEP_IDS). */
  more: number;
  /** Of those, how many were flagged. */
  more_flagged: number;
}

export class CounterUnavailable extends Error {
  constructor(key: string, reason: string) {
    super(`Counter ${key}: ${reason}`);
    this.name = 'CounterUnavailable';
  }
}

export interface Counted {
  /** This event's place in the window, from 1. */
  ordinal: number;
  /** Whether this call counted it (false: a retry of an event counted before). */
  fresh: boolean;
}

/**
 * Counts `eventId` in the counter `key`. `windowMs`: events older than this are forgotten
 * first (a sliding window); omit it for a counter whose key already names its window (a day,
 * an hour). `flagged` marks the event for tally().
 */
export async function countEvent(
  store: Store,
  key: string,
  eventId: string,
  now: Date,
  options: { windowMs?: number; flagged?: boolean } = {},
): Promise<Counted> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = await store.getWithMetadata(key, { type: 'json' });
    const blob = pruned(readBlob(found?.data), now, options.windowMs);
    const index = blob.events.findIndex((event) => event.id === eventId);
    if (index >= 0) return { ordinal: blob.more + index + 1, fresh: false };
    const ordinal = blob.more + blob.events.length + 1;
    const event = { id: eventId, at: now.toISOString(), ...(options.flagged === true && { flagged: true }) };
    const events = [...blob.events, event];
    const overflow = Math.max(0, events.length - KEEP_IDS);
    const next: CounterBlob = {
      events: events.slice(overflow),
      more: blob.more + overflow,
      more_flagged: blob.more_flagged + events.slice(0, overflow).filter((e) => e.flagged === true).length,
    };
    const write = await store.setJSON(key, next, found?.etag ? { onlyIfMatch: found.etag } : { onlyIfNew: true });
    // A write the library calls done without an ETag is one the store did not confirm (a 5xx
    // on a conditional write is reported that way): never count on it.
    if (write.modified && !write.etag) throw new CounterUnavailable(key, 'write not confirmed');
    if (write.modified) return { ordinal, fresh: true };
    // Lost the race: back off a little, at random, so twenty writers do not retry in step.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * Math.min(round + 1, 5)));
  }
  throw new CounterUnavailable(key, `still contended after ${MAX_ROUNDS} attempts`);
}

/**
 * How many events the counter holds in its window, and how many of those after the first
 * `skip` were flagged (the digest's "of the requests past the limit, this many look suspect").
 */
export async function tally(
  store: Store,
  key: string,
  now: Date,
  skip = 0,
  windowMs?: number,
): Promise<{ count: number; flaggedAfter: number }> {
  const found = await store.getWithMetadata(key, { type: 'json' });
  const blob = pruned(readBlob(found?.data), now, windowMs);
  // Events no longer remembered by id come first; their flags are only known as a total.
  const remembered = blob.events.slice(Math.max(0, skip - blob.more)).filter((e) => e.flagged === true).length;
  return {
    count: blob.more + blob.events.length,
    flaggedAfter: remembered + (skip < blob.more ? blob.more_flagged : 0),
  };
}

function readBlob(data: unknown): CounterBlob {
  if (!isObject(data) || !Array.isArray(data['events'])) return { events: [], more: 0, more_flagged: 0 };
  const events = (data['events'] as unknown[]).flatMap((e) =>
    isObject(e) && typeof e['id'] === 'string' && typeof e['at'] === 'string'
      ? [{ id: e['id'], at: e['at'], ...(e['flagged'] === true && { flagged: true }) }]
      : [],
  );
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return { events, more: number(data['more']), more_flagged: number(data['more_flagged']) };
}

/** Drops events older than the window; with a sliding window the forgotten count goes too. */
function pruned(blob: CounterBlob, now: Date, windowMs: number | undefined): CounterBlob {
  if (windowMs === undefined) return blob;
  const since = now.getTime() - windowMs;
  const events = blob.events.filter((e) => Date.parse(e.at) > since);
  // Events beyond KEEP_IDS carry no time: once the remembered ones age out, so have they.
  const aged = events.length < blob.events.length;
  return { events, more: aged ? 0 : blob.more, more_flagged: aged ? 0 : blob.more_flagged };
}

/** A counter whose newest event is older than this holds nothing any window still needs. */
export const COUNTER_KEEP_MS = 48 * 3_600_000;

/**
 * Deletes counters whose newest event is older than COUNTER_KEEP_MS (the sweep's housekeeping,
 * so the store holds no per-address trace for longer than the limits need). An event counted
 * between the read and the delete is lost with it: it could allow one extra email at most.
 */
export async function deleteStaleCounters(store: Store, now: Date, budgetMs: number): Promise<number> {
  const deadline = performance.now() + budgetMs;
  const { blobs } = await store.list({ prefix: COUNTERS_PREFIX });
  let deleted = 0;
  for (const { key } of blobs) {
    if (performance.now() >= deadline) break;
    const blob = readBlob(await store.get(key, { type: 'json' }));
    const newest = Math.max(0, ...blob.events.map((e) => Date.parse(e.at)).filter((ms) => !Number.isNaN(ms)));
    if (now.getTime() - newest < COUNTER_KEEP_MS) continue;
    await store.delete(key);
    deleted++;
  }
  return deleted;
}
