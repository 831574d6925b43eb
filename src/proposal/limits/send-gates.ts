/**
 * The send limits, counted exactly by tallies (../store/tally.ts): each request is placed once, by its
 * id, so a retry keeps its place. What a gate holds back goes to a job: the day's alert, the hour's digest.
 */
import { countedDomain, countedMailbox, SEND_LIMIT_SPECS, type SendLimits } from '../../contract/send-limits.ts';
import type { ProposalsStore } from '../store/blobs.ts';
import { DAY_MS, HOUR_MS, peek, tally, windowOf } from '../store/tally.ts';
import type { ProposalRecord } from '../submit/record.ts';

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
  const before = await peek(store, windowOf(name, new Date(at.getTime() - DAY_MS), DAY_MS), {
    now: at,
    windowMs: SEND_LIMIT_SPECS.perAddress.windowHours * HOUR_MS,
    eventId: r.request_id,
  });
  if (before.place !== undefined) return before.place;
  return before.count + (await tally(store, windowOf(name, at, DAY_MS), r.request_id, { now: at }));
}

/**
 * Which limit holds the confirmation back: the mailbox's place, the sending client's (one client leaves the site's
 * day to everyone else), the recipient domain's (every spelling a catch-all takes), then the site's UTC day.
 */
export async function confirmationLimit(gates: Gates, r: ProposalRecord) {
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

/** Worth a look: links in the text, or more requests from one address than it gets emails. */
export const suspect = ({ signals: s }: ProposalRecord, limits: SendLimits) =>
  s !== undefined && (s.links > 0 || (s.address_requests_24h ?? 0) > limits.perAddress);
