/**
 * The send limits, counted exactly by tallies (../store/tally.ts): each request is placed once, by its
 * id, so a retry keeps its place. What a gate holds back goes to a job: the day's alert, the hour's digest.
 */
import { countedDomain, countedMailbox, SEND_LIMIT_SPECS, type SendLimits } from '../../contract/send-limits.ts';
import type { ProposalsStore } from '../store/blobs.ts';
import { DAY_MS, HOUR_MS, peek, tally, windowOf } from '../store/tally.ts';
import type { ProposalRecord } from '../submit/record.ts';
import { isSuspect } from './spam-signals.ts';

type Gates = { store: ProposalsStore; limits: SendLimits; now: () => Date };

/** A mailbox's tally, however its address is spelled; erasing a person by email forgets it. */
export const addressTally = (email: string) => `address:${countedMailbox(email)}`;
export const hourOf = (at: Date) => at.toISOString().slice(0, 13);
export const hourEnd = (hour: string) => new Date(Date.parse(`${hour}:00:00.000Z`) + HOUR_MS);
/** The hour's notices to sales (requests, and "Not me" words as `erased-<id>`): past the limit, its digest counts them. */
export const noticeWindow = (at: Date) => windowOf('notices', at, HOUR_MS);

/** This request's place among its mailbox's requests of the last 24 hours: yesterday's tally within the window, then today's. */
export async function addressPlace({ store, now }: Pick<Gates, 'store' | 'now'>, r: ProposalRecord): Promise<number> {
  const at = now();
  const name = addressTally(r.contact.email);
  const windowMs = SEND_LIMIT_SPECS.perAddress.windowHours * HOUR_MS;
  const before = await peek(store, windowOf(name, new Date(at.getTime() - DAY_MS), DAY_MS), {
    now: at,
    windowMs,
    eventId: r.request_id,
  });
  if (before.place !== undefined) return before.place;
  return before.count + (await tally(store, windowOf(name, at, DAY_MS), r.request_id, { now: at }));
}

export type ConfirmationLimit = NonNullable<ProposalRecord['confirmation_email']['limit']>;

/**
 * Which limit holds the confirmation back: the mailbox's place, then the sending client's (so one
 * client stops at its own limit and leaves the site's day to everyone else), the recipient domain's
 * (every spelling a catch-all takes), then the site's UTC day.
 */
export async function confirmationLimit(gates: Gates, r: ProposalRecord): Promise<ConfirmationLimit | undefined> {
  const { store, limits } = gates;
  const now = gates.now();
  const place = r.signals?.address_requests_24h ?? (await addressPlace(gates, r));
  if (place > limits.perAddress) return 'per_address';
  const within = async (name: string, limit: number) =>
    (await tally(store, windowOf(name, now, DAY_MS), r.request_id, { now, limit })) <= limit;
  const network = r.source?.network;
  if (network !== undefined && !(await within(`confirmations:client:${network}`, limits.perClient)))
    return 'per_client';
  const domain = countedDomain(r.contact.email);
  if (domain !== undefined && !(await within(`confirmations:domain:${domain}`, limits.perDomain))) return 'per_domain';
  return (await within('confirmations:site', limits.perDay)) ? undefined : 'per_day';
}

/** Past NOTIFY_LIMIT_PER_HOUR in this hour, the notice (`id`: a request's, or `erased-<id>`) goes to the hour's digest. */
export async function pastHourLimit(gates: Gates, id: string, flagged: boolean): Promise<boolean> {
  const now = gates.now();
  return (await tally(gates.store, noticeWindow(now), id, { now, flagged })) > gates.limits.noticesPerHour;
}

export const suspect = (r: ProposalRecord, limits: SendLimits) => isSuspect(r.signals, limits.perAddress);
