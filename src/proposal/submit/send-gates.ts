/**
 * The send limits applied with the store's exact counters (a tally gives each request its place,
 * once, by request_id; a counter admits up to a limit): which confirmations and notices go out,
 * and the one alert and the hourly digest that stand in for the rest. A static site has no timer
 * for the digest: the first request past the limit owes it, due once the hour is over, and the
 * sweep that any later invocation starts sends it.
 */
import { limitAddress, SEND_LIMIT_SPECS, sendLimitsFromEnv, type SendLimits } from '../../contract/send-limits.ts';
import { countEventWithinLimit, tallyEvent, tallyOf } from '../store/event-tally.ts';
import type { ProposalsStore } from '../store/blobs.ts';
import type { ProposalRecord } from './record.ts';

export const DEFAULT_SEND_LIMITS: SendLimits = sendLimitsFromEnv(() => undefined).limits;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ADDRESS_WINDOW_MS = SEND_LIMIT_SPECS.perAddress.windowHours * HOUR_MS;
/** The UTC day a confirmation counts against (countEventWithinLimit aligns days to UTC), and the hour a notice does. */
const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const utcHour = (at: Date) => at.toISOString().slice(0, 13);
/** The tally of an address's requests; `npm run inbox -- delete --email` erases it. */
export const addressTally = (email: string) => `address:${limitAddress(email)}`;
const hourTally = (hour: string) => `notices:${hour}`;

/** This request's place among the requests sent with its address in the last 24 hours. */
export async function countAddressRequest(store: ProposalsStore, record: ProposalRecord, now: Date): Promise<number> {
  const { place } = await tallyEvent(store, addressTally(record.contact.email), record.request_id, {
    windowMs: ADDRESS_WINDOW_MS,
    now,
  });
  return place;
}

export type ConfirmationGate =
  | { send: true }
  /** `alertDay`: this request is the first the day's limit stopped; it owes sales the alert. */
  | { send: false; limit: 'per_address' | 'per_day'; alertDay?: string };

/**
 * May this request's confirmation go out? The address's place decides first (a retry keeps it);
 * only an email the address allows counts against the site's UTC day. The day's alert is a
 * counter of limit 1, so one stopped email a day owes it. A crash between counting and recording
 * counts an email twice: the limit errs towards fewer emails, never more.
 */
export async function confirmationGate(
  store: ProposalsStore,
  record: ProposalRecord,
  limits: SendLimits,
  now: Date,
): Promise<ConfirmationGate> {
  const place = record.signals?.address_requests_24h ?? (await countAddressRequest(store, record, now));
  if (place > limits.perAddress) return { send: false, limit: 'per_address' };
  const day = await countEventWithinLimit(store, 'confirmations:site', { limit: limits.perDay, windowMs: DAY_MS, now });
  if (day.allowed) return { send: true };
  const alert = await countEventWithinLimit(store, 'confirmations:site-limit-alert', {
    limit: 1,
    windowMs: DAY_MS,
    now,
  });
  return { send: false, limit: 'per_day', ...(alert.allowed && { alertDay: utcDay(now) }) };
}

export type NoticeGate =
  | { individual: true }
  /** `opensDigest`: this request is the first past the hour's limit; it owes that hour's digest. */
  | { individual: false; hour: string; opensDigest: boolean };

/** May this request's notice go to sales by itself, or does the hour's digest count it? */
export async function noticeGate(
  store: ProposalsStore,
  record: ProposalRecord,
  limits: SendLimits,
  now: Date,
  suspect: boolean,
): Promise<NoticeGate> {
  const hour = utcHour(now);
  const { place } = await tallyEvent(store, hourTally(hour), record.request_id, { flagged: suspect, now });
  if (place <= limits.noticesPerHour) return { individual: true };
  return { individual: false, hour, opensDigest: place === limits.noticesPerHour + 1 };
}

/** The digest of `hour` is due once the hour is over. */
export function digestDue(hour: string, now: Date): boolean {
  return now.getTime() >= Date.parse(`${hour}:00:00.000Z`) + HOUR_MS;
}

/** What the digest of `hour` reports: requests past the limit, and how many of them look suspect. */
export async function digestCounts(
  store: ProposalsStore,
  hour: string,
  limits: SendLimits,
  now: Date,
): Promise<{ total: number; more: number; suspect: number }> {
  const { count, flaggedAfter } = await tallyOf(store, hourTally(hour), { skip: limits.noticesPerHour, now });
  return { total: count, more: Math.max(0, count - limits.noticesPerHour), suspect: flaggedAfter };
}
