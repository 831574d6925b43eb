/**
 * The send limits, applied with the store's exact counters (a tally places each request once; a counter
 * admits up to a limit). With no timer on a static site, the first request past the hour's limit owes
 * its digest, due once the hour is over, and the sweep any later invocation starts sends it.
 */
import { countedDomain, countedMailbox, SEND_LIMIT_SPECS, type SendLimits } from '../../contract/send-limits.ts';
import { countEventWithinLimit, tallyEvent, tallyOf } from '../store/event-tally.ts';
import type { ProposalsStore } from '../store/blobs.ts';
import type { SubmitDeps } from './config.ts';
import { errorName, logEvent } from './log.ts';
import { MAX_SEND_ATTEMPTS } from './mailer.ts';
import { initialNotification } from './notification.ts';
import type { NotificationStatus, NotifyState, ProposalRecord } from './record.ts';
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
const hourTally = (hour: string) => `notices:${hour}`;

/** This request's place among the requests sent with its address in the last 24 hours. */
async function countAddressRequest(store: ProposalsStore, record: ProposalRecord, now: Date): Promise<number> {
  const { place } = await tallyEvent(store, addressTally(record.contact.email), record.request_id, {
    windowMs: ADDRESS_WINDOW_MS,
    now,
  });
  return place;
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

/**
 * Sends the owed confirmation unless a limit holds it back, counted before the first attempt only:
 * the mailbox's place first (a retry keeps it), then the sending client's confirmations (so one
 * client, however fast, stops at its own limit and leaves the site's day to everyone else), then
 * the recipient domain's (all spellings a catch-all domain takes), then the site's UTC day, whose
 * first stopped email owes sales the day's alert. A request whose client's address the platform did
 * not give meets the others. A crash between counting and recording errs towards fewer emails.
 */
export async function confirmationEmail(record: ProposalRecord, deps: SubmitDeps): Promise<Partial<ProposalRecord>> {
  const { store, limits } = deps;
  const now = deps.now();
  const at = now.toISOString();
  if (!deps.mailer) return { confirmation_email: { state: 'not_configured', at } };
  const attempts = (record.confirmation_email.attempts ?? 0) + 1;
  if (attempts === 1) {
    const place = record.signals?.address_requests_24h ?? (await countAddressRequest(store, record, now));
    const count = (name: string, limit: number) => countEventWithinLimit(store, name, { limit, windowMs: DAY_MS, now });
    const network = record.source?.network;
    const domain = countedDomain(record.contact.email);
    const limit =
      place > limits.perAddress
        ? 'per_address'
        : network !== undefined && !(await count(clientCounter(network), limits.perClient)).allowed
          ? 'per_client'
          : domain !== undefined && !(await count(domainCounter(domain), limits.perDomain)).allowed
            ? 'per_domain'
            : (await count('confirmations:site', limits.perDay)).allowed
              ? undefined
              : 'per_day';
    if (limit !== undefined) {
      const alert = limit === 'per_day' && (await count('confirmations:site-limit-alert', 1)).allowed;
      logEvent('confirmation_email_limited', { request_id: record.request_id, limit });
      return {
        confirmation_email: { state: 'limited', at, limit },
        ...(alert && { daily_limit_alert: { ...initialNotification(deps), day: at.slice(0, 10) } }),
      };
    }
  }
  const result = await deps.mailer.sendConfirmation(record, deps.partner).catch(() => 'retry' as const);
  const state = result === 'retry' ? (attempts >= MAX_SEND_ATTEMPTS ? 'failed' : 'not_sent') : result;
  return { confirmation_email: { state, at, attempts } };
}

/** Past NOTIFY_LIMIT_PER_HOUR the notice is left to the hour's digest; the first request past it owes that digest. */
export async function digestIfPastLimit(
  record: ProposalRecord,
  status: NotificationStatus,
  deps: SubmitDeps,
): Promise<Partial<ProposalRecord> | undefined> {
  const now = deps.now();
  const hour = now.toISOString().slice(0, 13);
  const flagged = isSuspect(record.signals, deps.limits.perAddress);
  const { place } = await tallyEvent(deps.store, hourTally(hour), record.request_id, { flagged, now });
  if (place <= deps.limits.noticesPerHour) return undefined;
  const held = (state: NotifyState): NotifyState => (state === 'owed' ? 'in_digest' : state);
  logEvent('notice_in_digest', { request_id: record.request_id, hour });
  return {
    notification: { ...status, email: held(status.email), chat: held(status.chat) },
    ...(place === deps.limits.noticesPerHour + 1 && {
      digest: { ...initialNotification(deps), hour },
    }),
  };
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
