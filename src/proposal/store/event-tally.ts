/**
 * Tallies: events counted once each, in order, so an event knows its place ("the 5th request from
 * this address in 24 hours") and a retry gets the same place; with a limit, only up to it. Each is
 * one blob changed by compare-and-swap, so simultaneous invocations never share a place.
 */
import { hash } from 'node:crypto';
import { isObject, StoreUnavailable, type ProposalsStore } from './blobs.ts';
import { STORE_LIMITS } from './limits.ts';

const TALLIES_PREFIX = 'tallies/';
/** Tallies of a fixed window, named by the window's end: retention deletes them from the head of a listing. */
const WINDOWS_PREFIX = 'windows/';
/** Past this a tally only counts (places stay exact, a retry may count again). */
const KEEP_IDS = 1_000;
/** A tally whose newest event is older than this holds nothing any window still needs. */
const TALLY_KEEP_MS = 48 * 3_600_000;
const DAY_MS = 86_400_000;

interface TallyValue {
  events: { id: string; at: string; flagged?: boolean }[];
  /** Events counted but no longer remembered by id (beyond KEEP_IDS), and how many were flagged. */
  more: number;
  more_flagged: number;
}

/** A hash, so an email address never appears in a key name; a fixed window's end before it. */
const tallyKey = (name: string, endsAt?: Date) =>
  endsAt === undefined
    ? `${TALLIES_PREFIX}${hash('sha256', name)}`
    : `${WINDOWS_PREFIX}${endsAt.toISOString()}/${hash('sha256', name)}`;

export interface TallyOptions {
  /** A sliding window; omit it when the tally is of a fixed window (`endsAt`). */
  windowMs?: number;
  /** The end of the fixed window the tally counts (an hour, a day): named by it, deleted from the head after it. */
  endsAt?: Date;
  flagged?: boolean;
  /** A new event past it is not written and gets place `limit + 1`, `fresh` false. */
  limit?: number;
  now?: Date;
}

/** Counts `eventId` under `name`: its place, from 1 (the same again for a repeat), and whether it was counted now. */
export async function tallyEvent(
  store: ProposalsStore,
  name: string,
  eventId: string,
  options: TallyOptions = {},
): Promise<{ place: number; fresh: boolean }> {
  const now = options.now ?? new Date();
  const key = tallyKey(name, options.endsAt);
  for (let attempt = 1; attempt <= STORE_LIMITS.tallyMaxAttempts; attempt++) {
    const found = await store.read(key);
    const value = readTally(found?.value, now, options.windowMs);
    const index = value.events.findIndex((event) => event.id === eventId);
    // Found after our own write lost its answer and another writer built on it: counted now, by us.
    if (index >= 0) return { place: value.more + index + 1, fresh: attempt > 1 };
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
    // Another event took this place: read again, a little later at random, so writers do not retry in step.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * Math.min(attempt, 5)));
  }
  throw new StoreUnavailable('count', 'contended');
}

/** The fixed window (aligned to multiples of `windowMs` since the epoch: a UTC day for 86 400 000) `now` is in. */
export function fixedWindow(now: Date, windowMs: number): { start: Date; end: Date } {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start: new Date(start), end: new Date(start + windowMs) };
}

/**
 * Counts `eventId` under `key` if fewer than `limit` are counted in the current fixed window; an event
 * counted before keeps its place (a repeat is allowed again, never counted twice). `count` includes it.
 */
export async function countEventWithinLimit(
  store: ProposalsStore,
  key: string,
  eventId: string,
  { limit, windowMs, now = new Date() }: { limit: number; windowMs: number; now?: Date },
): Promise<{ allowed: boolean; count: number; resetAt: string }> {
  const { start, end } = fixedWindow(now, windowMs);
  const name = `${key}@${start.toISOString()}`;
  const { place } = await tallyEvent(store, name, eventId, { limit, now, endsAt: end });
  const allowed = place <= limit;
  return { allowed, count: allowed ? place : place - 1, resetAt: end.toISOString() };
}

/** How many events the tally holds, and how many of those after the first `skip` were flagged (the digest's). */
export async function tallyOf(
  store: ProposalsStore,
  name: string,
  { skip, now, endsAt }: { skip: number; now: Date; endsAt?: Date },
): Promise<{ count: number; flaggedAfter: number }> {
  const value = readTally((await store.read(tallyKey(name, endsAt)))?.value, now);
  // Events no longer remembered by id come first; their flags are known only as a total.
  const remembered = value.events.slice(Math.max(0, skip - value.more)).filter((e) => e.flagged === true).length;
  return {
    count: value.more + value.events.length,
    flaggedAfter: remembered + (skip < value.more ? value.more_flagged : 0),
  };
}

/** The place of `eventId` in the tally of a fixed window, and how many events it holds within `windowMs`. */
export async function findEvent(
  store: ProposalsStore,
  name: string,
  eventId: string,
  { windowMs, now, endsAt }: { windowMs: number; now: Date; endsAt: Date },
): Promise<{ count: number; place?: number }> {
  const value = readTally((await store.read(tallyKey(name, endsAt)))?.value, now, windowMs);
  const index = value.events.findIndex((event) => event.id === eventId);
  return { count: value.more + value.events.length, ...(index >= 0 && { place: value.more + index + 1 }) };
}

/** `name` counted in daily windows: `name@<day>`, ending a day later. */
export function dailyTally(name: string, at: Date): { name: string; endsAt: Date } {
  const { start, end } = fixedWindow(at, DAY_MS);
  return { name: `${name}@${start.toISOString()}`, endsAt: end };
}

/** Erasure of a person's data: their address's tallies (daily ones still kept, and one of the release before) go with their requests. */
export async function forgetTally(store: ProposalsStore, name: string, now = new Date()): Promise<boolean> {
  const daily = [0, 1, 2, 3].map((days) => dailyTally(name, new Date(now.getTime() - days * DAY_MS)));
  const keys = [tallyKey(name), ...daily.map((d) => tallyKey(d.name, d.endsAt))];
  const found = await Promise.all(keys.map(async (key) => ((await store.read(key)) === null ? [] : [key])));
  await Promise.all(found.flat().map((key) => store.remove(key)));
  return found.flat().length > 0;
}

/**
 * Deletes tallies of fixed windows that ended TALLY_KEEP_MS ago, from the head of their listing: no
 * per-address trace outlives the limits. Sliding tallies (a mailbox's, before they were daily) whose
 * newest event is older than that go as well; none are written any more, so that listing empties.
 */
export async function deleteStaleTallies(store: ProposalsStore, now: Date, budgetMs: number): Promise<number> {
  const oldest = `${WINDOWS_PREFIX}${new Date(now.getTime() - TALLY_KEEP_MS).toISOString()}`;
  const ended = (await store.listWhile(WINDOWS_PREFIX, (key) => key < oldest)).slice(0, 500);
  await Promise.all(ended.map((key) => store.remove(key)));
  return ended.length + (await deleteStaleSlidingTallies(store, now, budgetMs));
}

function deleteStaleSlidingTallies(store: ProposalsStore, now: Date, budgetMs: number): Promise<number> {
  return store.scan(TALLIES_PREFIX, budgetMs, async (key) => {
    const times = readTally((await store.read(key))?.value, now)
      .events.map((e) => Date.parse(e.at))
      .filter((ms) => !Number.isNaN(ms));
    if (now.getTime() - Math.max(0, ...times) < TALLY_KEEP_MS) return false;
    await store.remove(key);
    return true;
  });
}

/** The stored tally, less events older than `windowMs`; once remembered events age out, so have older uncounted ones. */
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
