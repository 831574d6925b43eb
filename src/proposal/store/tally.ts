/**
 * Events counted once each, in order, within a fixed window (an hour, a UTC day): an event knows its
 * place ("the 5th request from this address today") and a retry gets the same place. One blob per
 * tally changed by compare-and-swap, `windows/<window end>/<sha256 of the name>`: simultaneous
 * invocations never share a place, no address appears in a name, ended windows go from the head.
 */
import { hash } from 'node:crypto';
import { isObject, StoreUnavailable, type ProposalsStore } from './blobs.ts';

const WINDOWS_PREFIX = 'windows/';
/** Past this a tally only counts: places stay exact, a retry may count again. */
const KEEP_IDS = 1_000;
/** Conditional writes a count tries: with N writers at once the last may lose N - 1 races. */
const MAX_ATTEMPTS = 60;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** An ended window is kept this long: no per-address trace outlives the limits that read it. */
const KEEP_MS = 48 * HOUR_MS;

type Event = { id: string; at: string; flagged?: true };
type Value = { events: Event[]; more: number; more_flagged: number };
/** A tally: its name and the end of the fixed window it counts. */
type Window = { name: string; endsAt: Date };

export const windowKey = ({ name, endsAt }: Window) =>
  `${WINDOWS_PREFIX}${endsAt.toISOString()}/${hash('sha256', name)}`;

/** The fixed window of `windowMs` (aligned to the epoch: a UTC day for DAY_MS) that `at` is in, named `name@<start>`. */
export function windowOf(name: string, at: Date, windowMs: number): Window {
  const start = Math.floor(at.getTime() / windowMs) * windowMs;
  return { name: `${name}@${new Date(start).toISOString()}`, endsAt: new Date(start + windowMs) };
}

/** Counts `eventId`: its place from 1 (the same again for a repeat). Past `limit` nothing is written: place `limit + 1`. */
export async function tally(
  store: ProposalsStore,
  window: Window,
  eventId: string,
  { now, limit, flagged = false }: { now: Date; limit?: number; flagged?: boolean },
): Promise<number> {
  const key = windowKey(window);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const found = await store.read(key);
    const value = readTally(found?.value, now);
    const index = value.events.findIndex((event) => event.id === eventId);
    if (index >= 0) return value.more + index + 1;
    const place = value.more + value.events.length + 1;
    if (limit !== undefined && place > limit) return place;
    const event = { id: eventId, at: now.toISOString(), ...(flagged && { flagged: true as const }) };
    const events = [...value.events, event];
    const overflow = Math.max(0, events.length - KEEP_IDS);
    const next: Value = {
      events: events.slice(overflow),
      more: value.more + overflow,
      more_flagged: value.more_flagged + events.slice(0, overflow).filter((e) => e.flagged).length,
    };
    if ((await store.writeIf(key, next, found ? { ifVersion: found.version } : { ifNew: true })) !== null) return place;
    // Another event took this place: read again a little later, at random, so writers do not retry in step.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * Math.min(attempt, 5)));
  }
  throw new StoreUnavailable('count', 'contended');
}

/** What a tally holds (events within `windowMs` of `now` when given), `eventId`'s place, and the flagged after the first `skip`. */
export async function peek(
  store: ProposalsStore,
  window: Window,
  { now, windowMs, eventId, skip = 0 }: { now: Date; windowMs?: number; eventId?: string; skip?: number },
): Promise<{ count: number; place?: number; flaggedAfter: number; idsAfter: string[] }> {
  const value = readTally((await store.read(windowKey(window)))?.value, now, windowMs);
  const index = eventId === undefined ? -1 : value.events.findIndex((event) => event.id === eventId);
  // Events no longer remembered by id come first; their flags are known only as a total.
  const after = value.events.slice(Math.max(0, skip - value.more));
  return {
    count: value.more + value.events.length,
    ...(index >= 0 && { place: value.more + index + 1 }),
    flaggedAfter: after.filter((e) => e.flagged).length + (skip < value.more ? value.more_flagged : 0),
    idsAfter: after.map((e) => e.id),
  };
}

/** Erasure of a person: the daily tallies under `name` that any limit still reads. */
export async function forget(store: ProposalsStore, name: string, now: Date): Promise<boolean> {
  const keys = [0, 1, 2].map((days) => windowKey(windowOf(name, new Date(now.getTime() - days * DAY_MS), DAY_MS)));
  const found = (await Promise.all(keys.map(async (key) => ((await store.read(key)) === null ? [] : [key])))).flat();
  await Promise.all(found.map((key) => store.remove(key)));
  return found.length > 0;
}

/** Deletes tallies whose window ended KEEP_MS ago, at most `limit`, from the head of the listing. */
export async function deleteEnded(store: ProposalsStore, now: Date, limit: number): Promise<number> {
  const oldest = `${WINDOWS_PREFIX}${new Date(now.getTime() - KEEP_MS).toISOString()}`;
  const ended = (await store.listWhile(WINDOWS_PREFIX, (key) => key < oldest)).slice(0, limit);
  await Promise.all(ended.map((key) => store.remove(key)));
  return ended.length;
}

/** The stored tally, less events older than `windowMs`; once remembered events age out, so have the uncounted ones. */
function readTally(value: unknown, now: Date, windowMs?: number): Value {
  if (!isObject(value) || !Array.isArray(value['events'])) return { events: [], more: 0, more_flagged: 0 };
  const stored = (value['events'] as unknown[]).flatMap((e) =>
    isObject(e) && typeof e['id'] === 'string' && typeof e['at'] === 'string'
      ? [{ id: e['id'], at: e['at'], ...(e['flagged'] === true && { flagged: true as const }) }]
      : [],
  );
  const events = stored.filter((e) => windowMs === undefined || Date.parse(e.at) > now.getTime() - windowMs);
  const count = (n: unknown) =>
    events.length === stored.length && typeof n === 'number' && Number.isFinite(n) ? n : 0;
  return { events, more: count(value['more']), more_flagged: count(value['more_flagged']) };
}
