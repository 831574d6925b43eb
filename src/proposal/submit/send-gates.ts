/**
 * The send limits, applied with the store's exact counters (a tally places each request once, by its
 * request id, so a repeat keeps its place; a counter admits up to a limit). What a gate holds back is
 * left to a job of its own: the day's alert, the hour's digest (jobs.ts).
 */
import { countedDomain, countedMailbox, SEND_LIMIT_SPECS } from '../../contract/send-limits.ts';
import { countEventWithinLimit, dailyTally, findEvent, fixedWindow, tallyEvent } from '../store/event-tally.ts';
import type { ProposalsStore } from '../store/blobs.ts';
import type { SubmitDeps } from './config.ts';
import { errorName, logEvent } from './log.ts';
import type { ProposalRecord } from './record.ts';
import { isSuspect } from './spam-signals.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const ADDRESS_WINDOW_MS = SEND_LIMIT_SPECS.perAddress.windowHours * HOUR_MS;
/** The tally of a mailbox's requests, however its address is spelled; `npm run inbox -- delete --email` erases it. */
export const addressTally = (email: string) => `address:${countedMailbox(email)}`;
/** The counter of the confirmations one sending client got (`network`: a hash, ../client-network.ts). */
const clientCounter = (network: string) => `confirmations:client:${network}`;
/** The counter of the confirmations sent to one recipient domain (countedDomain; none for a shared provider's). */
const domainCounter = (domain: string) => `confirmations:domain:${domain}`;
/** The notices of a clock hour (`2026-11-28T05`). */
export const hourTally = (hour: string) => `notices:${hour}`;
export const hourOf = (at: Date) => at.toISOString().slice(0, 13);
/** The end of the clock hour `hour`, when its digest is due. */
export const hourEnd = (hour: string) => new Date(Date.parse(`${hour}:00:00.000Z`) + HOUR_MS);

/**
 * This request's place among the requests sent with its address in the last 24 hours: those of
 * yesterday's tally still within the window, then its place in today's (counted once, by request id;
 * daily tallies are deleted from the head of a listing, never scanned).
 */
async function countAddressRequest(store: ProposalsStore, record: ProposalRecord, now: Date): Promise<number> {
  const name = addressTally(record.contact.email);
  const id = record.request_id;
  const yesterday = dailyTally(name, new Date(now.getTime() - DAY_MS));
  const before = await findEvent(store, yesterday.name, id, {
    windowMs: ADDRESS_WINDOW_MS,
    now,
    endsAt: yesterday.endsAt,
  });
  if (before.place !== undefined) return before.place;
  const today = dailyTally(name, now);
  const { place } = await tallyEvent(store, today.name, id, { now, endsAt: today.endsAt });
  return before.count + place;
}

/** Counted before storing, so the CRM and the notice show it; if the store cannot count now, the email's gate does. */
export async function withAddressCount(deps: SubmitDeps, record: ProposalRecord): Promise<ProposalRecord> {
  if (record.signals === undefined) return record;
  try {
    const ordinal = await countAddressRequest(deps.store, record, deps.now());
    return { ...record, signals: { ...record.signals, address_requests_24h: ordinal } };
  } catch (error) {
    logEvent('address_count_failed', { request_id: record.request_id, name: errorName(error) });
    return record;
  }
}

export type ConfirmationLimit = 'per_address' | 'per_client' | 'per_domain' | 'per_day';

/**
 * Which limit holds the confirmation back, if any: the mailbox's place first, then the sending client's
 * confirmations (so one client, however fast, stops at its own limit and leaves the site's day to
 * everyone else), then the recipient domain's (all spellings a catch-all domain takes), then the
 * site's UTC day. Counted by request id: a retry is counted once. A request whose client's address
 * the platform did not give meets the others.
 */
export async function confirmationLimit(
  record: ProposalRecord,
  deps: SubmitDeps,
): Promise<ConfirmationLimit | undefined> {
  const { store, limits } = deps;
  const now = deps.now();
  const id = record.request_id;
  const place = record.signals?.address_requests_24h ?? (await countAddressRequest(store, record, now));
  if (place > limits.perAddress) return 'per_address';
  const count = (name: string, limit: number) =>
    countEventWithinLimit(store, name, id, { limit, windowMs: DAY_MS, now });
  const network = record.source?.network;
  if (network !== undefined && !(await count(clientCounter(network), limits.perClient)).allowed) return 'per_client';
  const domain = countedDomain(record.contact.email);
  if (domain !== undefined && !(await count(domainCounter(domain), limits.perDomain)).allowed) return 'per_domain';
  return (await count('confirmations:site', limits.perDay)).allowed ? undefined : 'per_day';
}

/** Past NOTIFY_LIMIT_PER_HOUR in the hour of `at`, the notice is left to that hour's digest; counted once per request. */
export async function pastHourLimit(record: ProposalRecord, deps: SubmitDeps, at: Date): Promise<boolean> {
  const hour = hourOf(at);
  const flagged = isSuspect(record.signals, deps.limits.perAddress);
  const endsAt = fixedWindow(at, HOUR_MS).end;
  const { place } = await tallyEvent(deps.store, hourTally(hour), record.request_id, { flagged, now: at, endsAt });
  return place > deps.limits.noticesPerHour;
}
