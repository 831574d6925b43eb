/**
 * What a stored request still owes, in order under its key's lease: CRM delivery, confirmation, sales
 * messages. The sender, its retries and the sweep all run this code, so each effect happens once.
 */
import { json, type Reply } from '../../contract/http.ts';
import { deliverWithin, type CrmOutcome } from './crm.ts';
import type { SubmitDeps } from './config.ts';
import { LeaseLostError, type KeyLease } from '../store/key-entry.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { markOpen, markSettled } from '../store/open-index.ts';
import { logEvent } from './log.ts';
import {
  dailyLimitAlert,
  hourlyDigest,
  isOwed,
  noticeMessage,
  sendOwedMessage,
  type SalesMessage,
} from './notification.ts';
import { confirmationEmail, digestCounts, digestDue, digestIfPastLimit, withAddressCount } from './send-gates.ts';
import type { NotificationStatus, NotifyState, ProposalRecord } from './record.ts';
import { failedReplyBody, pendingReplyBody, receivedReplyBody } from '../../contract/submit-replies.ts';

/** Retry hint of a 202 when the CRM named none. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

interface OwedWorkStart {
  /** The entry was just created: no record is stored yet, skip the read. */
  fresh: boolean;
  /** Builds the record when none is stored (the sender's path); the sweep passes none. */
  build?: () => ProposalRecord;
  /** The sweep skips a CRM attempt whose next_attempt_at is still ahead; a sender's retry always tries. */
  respectBackoff?: boolean;
}

/** Thrown when the sweep finds no stored request for an open marker (erased meanwhile). */
export class RecordGoneError extends Error {
  constructor(requestId: string) {
    super(`No stored request ${requestId}.`);
    this.name = 'RecordGoneError';
  }
}

/**
 * Stores the request if new, does what it owes and ends the lease (final with the answer to replay, or
 * pending). Null when the lease was taken over; a StoreUnavailable thrown means nothing is known stored.
 * `storeFailed`: the store failed after storing; `reply` and `record` are what it last confirmed, the sweep finishes.
 */
export async function completeOwedWork(deps: SubmitDeps, lease: KeyLease, start: OwedWorkStart) {
  let done: Awaited<ReturnType<typeof storeAndComplete>>;
  try {
    done = await storeAndComplete(deps, lease, start);
  } catch (error) {
    if (error instanceof LeaseLostError) {
      logEvent('idempotency_lease_lost', { request_id: lease.entry.request_id });
      return null;
    }
    if (!(error instanceof StoreUnavailable)) {
      // Free the key now so a retry need not wait for the lease to go stale.
      await lease.release({ state: 'pending' }).catch(() => undefined);
      throw error;
    }
    // Another write would only add its own bound to the reply: the lease goes stale, a retry takes it over.
    lease.abandon();
    const stored = lease.record;
    if (stored === null) throw error;
    // Answer with what the store confirmed, never more.
    logEvent('store_unavailable', { request_id: stored.request_id, operation: error.operation, reason: error.reason });
    return { reply: replyFor(stored, deps, undefined), record: stored, storeFailed: error };
  }
  const { record, outcome, marked } = done;
  const reply = replyFor(record, deps, outcome);
  const final = !owes(record);
  const released = await lease.release(
    final ? { state: 'final', reply: { headers: {}, ...reply } } : { state: 'pending' },
  );
  // Once final, the request leaves the index of open work; a failed delete is settled by the next sweep.
  if (final && marked && released) await markSettled(deps.store, record).catch(() => undefined);
  return { reply, record };
}

async function storeAndComplete(deps: SubmitDeps, lease: KeyLease, start: OwedWorkStart) {
  const { now, crm } = deps;
  const { entry } = lease;
  // An open marker may exist (false when it was settled in the invocation that stored it).
  let marked = !start.fresh;
  const loaded = start.fresh ? null : await lease.loadRecord();
  let record: ProposalRecord;
  if (loaded === null) {
    if (start.build === undefined) throw new RecordGoneError(entry.request_id);
    const built = await withAddressCount(deps, { ...start.build(), idempotency_entry: lease.entryKey });
    // The inbox: the one write that stores the record also delivers it.
    const first = crm.storesRecord ? delivered(built, deps) : built;
    // The open marker first: no stored request the sweep cannot find, whatever fails after.
    if (owes(first)) {
      await markOpen(deps.store, first);
      marked = true;
    }
    record = await lease.createRecord(first);
  } else {
    record = loaded;
    // A sender's retry: the invocation that stored the request may have died before its marker.
    if (start.build !== undefined && owes(record)) await markOpen(deps.store, record);
  }
  if (record.idempotency_entry !== lease.entryKey) {
    // The sweep works under the request's synthetic entry from now on: say so on the record.
    record = await lease.updateRecord({ ...record, idempotency_entry: lease.entryKey });
  }

  let outcome: CrmOutcome | undefined;
  if (record.delivery.state === 'pending' && !(start.respectBackoff && backoffAhead(record, now()))) {
    lease.assertHeld();
    outcome = await deliverWithin(crm, record, record.delivery.delivery_id ?? record.request_id, deps.crmTimeoutMs);
    // Durable before the email: a retry sees "received" and never delivers again.
    record = await lease.updateRecord(
      outcome.ok ? delivered(record, deps, outcome.reference) : refused(record, deps, outcome),
    );
  }

  /** One owed step: the lease is checked before anything goes out, and what changed is stored. */
  const step = async (change: (current: ProposalRecord) => Promise<Partial<ProposalRecord> | undefined>) => {
    lease.assertHeld();
    const changed = await change(record);
    if (changed !== undefined) record = await lease.updateRecord({ ...record, ...changed });
  };
  const send = <S extends NotificationStatus>(status: S, message: SalesMessage) =>
    sendOwedMessage(status, message, deps, record.request_id);

  if (record.delivery.state === 'received' && record.confirmation_email.state === 'not_sent') {
    await step((current) => confirmationEmail(current, deps));
  }
  // After the delivery, so the notice says whether the CRM has it; counted before the first attempt only.
  const notice = record.notification;
  if (isOwed(notice) && notice.attempts === 0) await step((current) => digestIfPastLimit(current, notice, deps));
  for (const kind of ['notification', 'alert'] as const) {
    const status = record[kind];
    if (isOwed(status)) {
      const message = noticeMessage(kind, record, deps.partner);
      await step(async () => ({ [kind]: await send(status, message) }));
    }
  }
  const dayAlert = record.daily_limit_alert;
  if (isOwed(dayAlert)) {
    const message = dailyLimitAlert(dayAlert.day, deps.limits.perDay, deps.partner);
    await step(async () => ({ daily_limit_alert: await send(dayAlert, message) }));
  }
  // The hour's digest, once the hour is over: until then it stays owed and the sweep comes back for it.
  const digest = record.digest;
  if (isOwed(digest) && digestDue(digest.hour, now())) {
    await step(async () => {
      const counts = await digestCounts(deps.store, digest.hour, deps.limits, now());
      const sent = await send(digest, hourlyDigest(digest.hour, counts, deps.limits.noticesPerHour, deps.partner));
      logEvent('digest_sent', { request_id: record.request_id, hour: digest.hour, more: counts.more });
      return { digest: sent };
    });
  }
  return { record, marked, ...(outcome && { outcome }) };
}

/** Does the record still owe anything? */
export function owes(record: ProposalRecord): boolean {
  return (
    record.delivery.state === 'pending' ||
    (record.delivery.state === 'received' && record.confirmation_email.state === 'not_sent') ||
    owesSalesMessage(record)
  );
}

/** A notice, alert or digest to the sales team is still to be sent. */
export function owesSalesMessage(record: ProposalRecord): boolean {
  return [record.notification, record.alert, record.daily_limit_alert, record.digest].some(isOwed);
}

/** The CRM delivery is pending and its backoff has not run out. */
export function backoffAhead(record: ProposalRecord, now: Date): boolean {
  const next = record.delivery.next_attempt_at;
  return record.delivery.state === 'pending' && next !== undefined && Date.parse(next) > now.getTime();
}

/** The record as accepted by the CRM. */
function delivered(record: ProposalRecord, deps: SubmitDeps, reference?: string): ProposalRecord {
  const { next_attempt_at: _next, ...delivery } = record.delivery;
  return {
    ...record,
    delivery: {
      ...delivery,
      crm: deps.crm.name,
      state: 'received',
      attempts: record.delivery.attempts + 1,
      delivered_at: deps.now().toISOString(),
      ...(reference !== undefined && { crm_reference: reference }),
    },
  };
}

/** After a refusal: retried after a backoff, or failed past REDELIVERY_MAX_HOURS, owing sales an alert. */
function refused(record: ProposalRecord, deps: SubmitDeps, outcome: CrmOutcome & { ok: false }): ProposalRecord {
  const attempts = record.delivery.attempts + 1;
  const at = deps.now();
  const gaveUp = at.getTime() - Date.parse(record.received_at) >= deps.redelivery.maxAgeMs;
  const delivery = { ...record.delivery, crm: deps.crm.name, attempts, last_error_kind: outcome.kind };
  logEvent(gaveUp ? 'crm_delivery_failed' : 'crm_delivery_pending', {
    request_id: record.request_id,
    crm: deps.crm.name,
    kind: outcome.kind,
    attempts,
  });
  if (!gaveUp) {
    const wait = backoffMs(deps.redelivery, attempts, outcome.retryAfterSeconds);
    return { ...record, delivery: { ...delivery, next_attempt_at: new Date(at.getTime() + wait).toISOString() } };
  }
  // With no notice configured, the alert goes by whatever is configured now.
  const channel = (state?: NotifyState): NotifyState =>
    state === undefined || state === 'not_configured' ? 'not_configured' : 'owed';
  return {
    ...record,
    delivery: { ...delivery, state: 'failed', failed_at: at.toISOString() },
    alert: { email: channel(record.notification?.email), chat: channel(record.notification?.chat), attempts: 0 },
  };
}

function replyFor(record: ProposalRecord, deps: SubmitDeps, outcome: CrmOutcome | undefined): Reply {
  const base = { requestId: record.request_id, receivedAt: record.received_at };
  const confirmationEmail = record.confirmation_email.state;
  switch (record.delivery.state) {
    case 'received':
      return json(
        201,
        receivedReplyBody({ ...base, crm: record.delivery.crm, confirmationEmail, partner: deps.partner }),
      );
    case 'failed':
      return json(202, failedReplyBody({ ...base, confirmationEmail }));
    case 'pending': {
      const retryAfter =
        (outcome && !outcome.ok ? outcome.retryAfterSeconds : undefined) ?? DEFAULT_RETRY_AFTER_SECONDS;
      return json(202, pendingReplyBody({ ...base, retryAfterSeconds: retryAfter }), {
        'Retry-After': String(retryAfter),
      });
    }
  }
}

/** base·2^(attempts−1), at most an hour (REDELIVERY_BACKOFF_SECONDS' maximum), never below the CRM's Retry-After. */
function backoffMs(policy: SubmitDeps['redelivery'], attempts: number, retryAfterSeconds = 0): number {
  return Math.max(Math.min(policy.backoffBaseMs * 2 ** Math.max(0, attempts - 1), 3_600_000), retryAfterSeconds * 1000);
}
