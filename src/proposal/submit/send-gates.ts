/**
 * The send limits (../send-limits.ts) applied with the exact counters of event-counter.ts:
 * which confirmation emails and sales notices may go out, and the one alert and the hourly
 * digest that stand in for the rest. Every counter counts a request once, by its request_id,
 * so retries and the sweep see the decision the first attempt saw.
 *
 * The digest of an hour cannot be sent by a timer (a static site and one function have none):
 * the first request past the limit holds it as owed work, due when the hour is over, and the
 * redelivery sweep (which any later invocation starts, and `npm run inbox redeliver` runs on
 * demand) sends it. An hour with a flood is always followed by the invocation that sweeps it.
 */
import type { Store } from '@netlify/blobs';
import { limitAddress, SEND_LIMIT_SPECS, type SendLimits } from '../send-limits.ts';
import { COUNTERS_PREFIX, countEvent, tally } from './event-counter.ts';
import { sha256Hex } from './fingerprint.ts';
import type { ProposalRecord } from './record.ts';

export const DEFAULT_SEND_LIMITS: SendLimits = {
  perAddress: SEND_LIMIT_SPECS.perAddress.default,
  perDay: SEND_LIMIT_SPECS.perDay.default,
  noticesPerHour: SEND_LIMIT_SPECS.noticesPerHour.default,
};

const HOUR_MS = 3_600_000;
const ADDRESS_WINDOW_MS = SEND_LIMIT_SPECS.perAddress.windowHours * HOUR_MS;

/** A hash, so no address appears in a blob key (keys show up in listings and logs). */
export const addressCounterKey = (email: string) => `${COUNTERS_PREFIX}address/${sha256Hex(limitAddress(email))}`;
/** `2026-11-24`: the UTC day a confirmation counts against. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
/** `2026-11-24T14`: the UTC clock hour a notice counts against. */
export const utcHour = (at: Date) => at.toISOString().slice(0, 13);
const dayCounterKey = (day: string) => `${COUNTERS_PREFIX}confirmations/${day}`;
const hourCounterKey = (hour: string) => `${COUNTERS_PREFIX}notices/${hour}`;

/** This request's place among the requests sent with its address in the last 24 hours. */
export async function countAddressRequest(store: Store, record: ProposalRecord, now: Date): Promise<number> {
  const counted = await countEvent(store, addressCounterKey(record.contact.email), record.request_id, now, {
    windowMs: ADDRESS_WINDOW_MS,
  });
  return counted.ordinal;
}

export type ConfirmationGate =
  | { send: true }
  /** `alertDay`: this request is the first the day's limit stopped; it owes sales the alert. */
  | { send: false; limit: 'per_address' | 'per_day'; alertDay?: string };

/** May this request's confirmation email go out? Counts it against the site's day only when the address allows it. */
export async function confirmationGate(
  store: Store,
  record: ProposalRecord,
  limits: SendLimits,
  now: Date,
): Promise<ConfirmationGate> {
  const ordinal = record.signals?.address_requests_24h ?? (await countAddressRequest(store, record, now));
  if (ordinal > limits.perAddress) return { send: false, limit: 'per_address' };
  const day = utcDay(now);
  const { ordinal: ofDay } = await countEvent(store, dayCounterKey(day), record.request_id, now);
  if (ofDay <= limits.perDay) return { send: true };
  return { send: false, limit: 'per_day', ...(ofDay === limits.perDay + 1 && { alertDay: day }) };
}

export type NoticeGate =
  | { individual: true }
  /** `opensDigest`: this request is the first past the hour's limit; it owes that hour's digest. */
  | { individual: false; hour: string; opensDigest: boolean };

/** May this request's notice go to sales by itself, or does the hour's digest count it? */
export async function noticeGate(
  store: Store,
  record: ProposalRecord,
  limits: SendLimits,
  now: Date,
  suspect: boolean,
): Promise<NoticeGate> {
  const hour = utcHour(now);
  const { ordinal } = await countEvent(store, hourCounterKey(hour), record.request_id, now, { flagged: suspect });
  if (ordinal <= limits.noticesPerHour) return { individual: true };
  return { individual: false, hour, opensDigest: ordinal === limits.noticesPerHour + 1 };
}

/** The digest of `hour` is due once the hour is over. */
export function digestDue(hour: string, now: Date): boolean {
  return now.getTime() >= Date.parse(`${hour}:00:00.000Z`) + HOUR_MS;
}

/** What the digest of `hour` reports: requests past the limit, and how many of them look suspect. */
export async function digestCounts(
  store: Store,
  hour: string,
  limits: SendLimits,
  now: Date,
): Promise<{ total: number; more: number; suspect: number }> {
  const { count, flaggedAfter } = await tally(store, hourCounterKey(hour), now, limits.noticesPerHour);
  return { total: count, more: Math.max(0, count - limits.noticesPerHour), suspect: flaggedAfter };
}
