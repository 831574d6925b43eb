/**
 * What a stored request still owes, done in order under its key's lease: the CRM delivery (or,
 * after REDELIVERY_MAX_HOURS of refusals, marking it failed), the confirmation email once the
 * CRM has it, the sales team's notice of the new request, and the alert for a failed one. The
 * sender's submits and retries and the background sweep all run this same code, so each effect
 * happens once whoever gets there first.
 */
import { json, type Reply } from '../../contract/http.ts';
import { DEFAULT_CRM_TIMEOUT_MS, deliverWithin, type CrmOutcome } from './crm/adapter.ts';
import type { SubmitDeps } from './deps.ts';
import type { KeyLease, StoredReply } from '../store/key-entry.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { markOpen, markSettled } from '../store/open-index.ts';
import { RecordStore } from '../store/record-store.ts';
import { logEvent } from './log.ts';
import {
  dailyLimitAlert,
  hourlyDigest,
  initialNotification,
  isOwed,
  sendOwedMessage,
  sendOwedNotification,
  type NotificationKind,
} from './notification.ts';
import {
  confirmationGate,
  countAddressRequest,
  DEFAULT_SEND_LIMITS,
  digestCounts,
  digestDue,
  noticeGate,
} from './send-gates.ts';
import { isSuspect } from './spam-signals.ts';
import type { NotifyState, ProposalRecord } from './record.ts';
import { backoffMs, DEFAULT_REDELIVERY_POLICY } from './redelivery-policy.ts';
import { failedReplyBody, pendingReplyBody, receivedReplyBody } from '../../contract/submit-replies.ts';

/** Retry hint of a 202 when the CRM named none. */
export const DEFAULT_RETRY_AFTER_SECONDS = 30;
/** After this many transient failures the confirmation email counts as failed. */
const MAX_EMAIL_ATTEMPTS = 5;

export interface OwedWorkStart {
  /** The entry was just created: no record is stored yet, skip the read. */
  fresh: boolean;
  /** Builds the record when none is stored (the sender's path); the sweep passes none. */
  build?: () => ProposalRecord;
}

export interface OwedWorkResult {
  reply: Reply;
  record: ProposalRecord;
  /** Nothing is owed any more: the key entry becomes final and the open marker goes. */
  final: boolean;
  /** An open marker may exist for the request (false when it was settled in the invocation that stored it). */
  marked: boolean;
  /**
   * The store failed after the request was stored: `reply` and `record` are the last version it
   * confirmed, the open marker stays, and the sweep or a retry finishes the work.
   */
  storeFailed?: StoreUnavailable;
}

/** Thrown when the sweep finds no stored request for an open marker (erased meanwhile). */
export class RecordGoneError extends Error {
  constructor(requestId: string) {
    super(`No stored request ${requestId}.`);
    this.name = 'RecordGoneError';
  }
}

/**
 * Stores the request if it is new, then does what its record says is owed. `respectBackoff`
 * (the sweep) skips a CRM attempt whose next_attempt_at is still ahead; a sender's retry always
 * tries, as before.
 */
export async function completeOwedWork(
  deps: SubmitDeps,
  lease: KeyLease,
  start: OwedWorkStart,
  options: { respectBackoff?: boolean } = {},
): Promise<OwedWorkResult> {
  const records = new RecordStore(deps.store, lease);
  const marked = { value: !start.fresh };
  try {
    return await storeAndComplete(deps, lease, start, options, records, marked);
  } catch (error) {
    const stored = records.stored;
    if (!(error instanceof StoreUnavailable) || stored === null) throw error;
    // Stored, then the store failed: answer with what it confirmed, never more.
    logEvent('store_unavailable', {
      request_id: stored.request_id,
      operation: error.operation,
      reason: error.reason,
    });
    return {
      reply: replyFor(stored, deps, undefined),
      record: stored,
      final: false,
      marked: marked.value,
      storeFailed: error,
    };
  }
}

async function storeAndComplete(
  deps: SubmitDeps,
  lease: KeyLease,
  start: OwedWorkStart,
  options: { respectBackoff?: boolean },
  records: RecordStore,
  marked: { value: boolean },
): Promise<OwedWorkResult> {
  const now = deps.now ?? (() => new Date());
  const policy = deps.redelivery ?? DEFAULT_REDELIVERY_POLICY;
  const { entry } = lease;
  let record = start.fresh ? null : await records.load(entry.request_id);
  if (record === null) {
    if (start.build === undefined) throw new RecordGoneError(entry.request_id);
    const built = await withAddressCount(deps, { ...start.build(), idempotency_entry: lease.entryKey }, now());
    // The inbox: the one write that stores the record also delivers it.
    const first = deps.crm.storesRecord ? delivered(built, deps, now) : built;
    // The open marker first: no stored request the sweep cannot find, whatever fails after.
    if (owes(first)) {
      await markOpen(deps.store, first);
      marked.value = true;
    }
    record = await records.create(first);
  } else if (start.build !== undefined && owes(record)) {
    // A sender's retry: the invocation that stored the request may have died before its marker.
    await markOpen(deps.store, record);
  }
  if (record.idempotency_entry !== lease.entryKey) {
    // The sweep works under the request's synthetic entry from now on: say so on the record.
    record = await records.update({ ...record, idempotency_entry: lease.entryKey });
  }

  let outcome: CrmOutcome | undefined;
  const due =
    record.delivery.next_attempt_at === undefined || Date.parse(record.delivery.next_attempt_at) <= now().getTime();
  if (record.delivery.state === 'pending' && (!options.respectBackoff || due)) {
    lease.assertHeld();
    outcome = await deliverWithin(
      deps.crm,
      record,
      record.delivery.delivery_id ?? record.request_id,
      deps.crmTimeoutMs ?? DEFAULT_CRM_TIMEOUT_MS,
    );
    if (outcome.ok) {
      // Durable before the email: a retry sees "received" and never delivers again.
      record = await records.update(delivered(record, deps, now, outcome.reference));
    } else {
      const attempts = record.delivery.attempts + 1;
      const at = now();
      const gaveUp = at.getTime() - Date.parse(record.received_at) >= policy.maxAgeMs;
      const delivery: ProposalRecord['delivery'] = gaveUp
        ? {
            ...record.delivery,
            crm: deps.crm.name,
            state: 'failed',
            attempts,
            last_error_kind: outcome.kind,
            failed_at: at.toISOString(),
          }
        : {
            ...record.delivery,
            crm: deps.crm.name,
            attempts,
            last_error_kind: outcome.kind,
            next_attempt_at: new Date(
              at.getTime() + backoffMs(policy, attempts, outcome.retryAfterSeconds),
            ).toISOString(),
          };
      // A failed request owes the sales team an alert on the channels its notice used.
      const alert = gaveUp
        ? { alert: { email: channelOwed(record, 'email'), chat: channelOwed(record, 'chat'), attempts: 0 } }
        : {};
      record = await records.update({ ...record, delivery, ...alert });
      logEvent(gaveUp ? 'crm_delivery_failed' : 'crm_delivery_pending', {
        request_id: record.request_id,
        crm: deps.crm.name,
        kind: outcome.kind,
        attempts,
      });
    }
  }

  if (record.delivery.state === 'received' && record.confirmation_email.state === 'not_sent')
    record = await sendOwedEmail(record, records, deps, lease, now);
  // After the delivery attempt, so the notice can say whether the CRM has the request.
  record = await gateNotice(record, records, deps, lease, now);
  record = await notifyIfOwed('notification', record, records, deps, lease, now);
  record = await notifyIfOwed('alert', record, records, deps, lease, now);
  record = await sendDailyLimitAlertIfOwed(record, records, deps, lease, now);
  record = await sendDigestIfDue(record, records, deps, lease, now);
  return { reply: replyFor(record, deps, outcome), record, final: !owes(record), marked: marked.value };
}

/** Does the record still owe anything? */
export function owes(record: ProposalRecord): boolean {
  return (
    record.delivery.state === 'pending' ||
    (record.delivery.state === 'received' && record.confirmation_email.state === 'not_sent') ||
    isOwed(record.notification) ||
    isOwed(record.alert) ||
    isOwed(record.daily_limit_alert) ||
    isOwed(record.digest)
  );
}

/**
 * The request's place among its address's requests of the last 24 hours, recorded with its
 * spam signals. Counted before the request is stored, so the CRM and the notice show it; when
 * the store cannot count now, the request is stored without it and the email's gate counts.
 */
async function withAddressCount(deps: SubmitDeps, record: ProposalRecord, at: Date): Promise<ProposalRecord> {
  if (record.signals === undefined) return record;
  try {
    const ordinal = await countAddressRequest(deps.store, record, at);
    return { ...record, signals: { ...record.signals, address_requests_24h: ordinal } };
  } catch (error) {
    logEvent('address_count_failed', { request_id: record.request_id, name: errorName(error) });
    return record;
  }
}

const errorName = (error: unknown) => (error instanceof Error ? error.name : 'unknown');

const salesDeps = (deps: SubmitDeps) => ({
  mailer: deps.mailer,
  notify: deps.notify ?? { emailTo: [] },
  partner: deps.partner,
});

/** Past NOTIFY_LIMIT_PER_HOUR the notice is left to the hour's digest; the first request past it owes that digest. */
async function gateNotice(
  record: ProposalRecord,
  records: RecordStore,
  deps: SubmitDeps,
  lease: KeyLease,
  now: () => Date,
): Promise<ProposalRecord> {
  const status = record.notification;
  // Counted once, before the first attempt: a notice already tried was let through.
  if (status === undefined || !isOwed(status) || status.attempts > 0) return record;
  lease.assertHeld();
  const limits = deps.limits ?? DEFAULT_SEND_LIMITS;
  const gate = await noticeGate(deps.store, record, limits, now(), isSuspect(record.signals, limits.perAddress));
  if (gate.individual) return record;
  const held = (state: NotifyState): NotifyState => (state === 'owed' ? 'in_digest' : state);
  logEvent('notice_in_digest', { request_id: record.request_id, hour: gate.hour });
  return records.update({
    ...record,
    notification: { ...status, email: held(status.email), chat: held(status.chat) },
    ...(gate.opensDigest && {
      digest: { ...initialNotification(salesDeps(deps).notify, deps.mailer), hour: gate.hour },
    }),
  });
}

async function sendDailyLimitAlertIfOwed(
  record: ProposalRecord,
  records: RecordStore,
  deps: SubmitDeps,
  lease: KeyLease,
  now: () => Date,
): Promise<ProposalRecord> {
  const status = record.daily_limit_alert;
  if (status === undefined || !isOwed(status)) return record;
  lease.assertHeld();
  const limits = deps.limits ?? DEFAULT_SEND_LIMITS;
  const message = dailyLimitAlert(status.day, limits.perDay, deps.partner);
  const next = await sendOwedMessage(status, message, salesDeps(deps), now().toISOString(), record.request_id);
  return records.update({ ...record, daily_limit_alert: next });
}

/** The hour's digest, once the hour is over: until then it stays owed and the sweep comes back for it. */
async function sendDigestIfDue(
  record: ProposalRecord,
  records: RecordStore,
  deps: SubmitDeps,
  lease: KeyLease,
  now: () => Date,
): Promise<ProposalRecord> {
  const status = record.digest;
  if (status === undefined || !isOwed(status) || !digestDue(status.hour, now())) return record;
  lease.assertHeld();
  const limits = deps.limits ?? DEFAULT_SEND_LIMITS;
  const counts = await digestCounts(deps.store, status.hour, limits, now());
  const message = hourlyDigest(status.hour, counts, limits.noticesPerHour, deps.partner);
  const next = await sendOwedMessage(status, message, salesDeps(deps), now().toISOString(), record.request_id);
  logEvent('digest_sent', { request_id: record.request_id, hour: status.hour, more: counts.more });
  return records.update({ ...record, digest: next });
}

/** The alert goes where notices go; with no notice configured, it goes by whatever is configured now. */
function channelOwed(record: ProposalRecord, channel: 'email' | 'chat'): 'owed' | 'not_configured' {
  const state = record.notification?.[channel];
  return state === undefined || state === 'not_configured' ? 'not_configured' : 'owed';
}

async function notifyIfOwed(
  kind: NotificationKind,
  record: ProposalRecord,
  records: RecordStore,
  deps: SubmitDeps,
  lease: KeyLease,
  now: () => Date,
): Promise<ProposalRecord> {
  const status = record[kind];
  if (status === undefined || !isOwed(status)) return record;
  lease.assertHeld();
  const next = await sendOwedNotification(
    kind,
    status,
    record,
    { mailer: deps.mailer, notify: deps.notify ?? { emailTo: [] }, partner: deps.partner },
    now().toISOString(),
  );
  return records.update({ ...record, [kind]: next });
}

/** Sends the confirmation email the record owes and records the outcome. */
async function sendOwedEmail(
  record: ProposalRecord,
  records: RecordStore,
  deps: SubmitDeps,
  lease: KeyLease,
  now: () => Date,
): Promise<ProposalRecord> {
  const at = now().toISOString();
  if (!deps.mailer) return records.update({ ...record, confirmation_email: { state: 'not_configured', at } });
  lease.assertHeld();
  // Counted before the first attempt only: an email already tried was let through.
  if ((record.confirmation_email.attempts ?? 0) === 0) {
    const gate = await confirmationGate(deps.store, record, deps.limits ?? DEFAULT_SEND_LIMITS, now());
    if (!gate.send) {
      logEvent('confirmation_email_limited', { request_id: record.request_id, limit: gate.limit });
      return records.update({
        ...record,
        confirmation_email: { state: 'limited', at, limit: gate.limit },
        ...(gate.alertDay !== undefined && {
          daily_limit_alert: { ...initialNotification(salesDeps(deps).notify, deps.mailer), day: gate.alertDay },
        }),
      });
    }
  }
  const result = await deps.mailer.sendConfirmation(record, deps.partner).catch(() => 'retry' as const);
  const attempts = (record.confirmation_email.attempts ?? 0) + 1;
  const state = result === 'retry' ? (attempts >= MAX_EMAIL_ATTEMPTS ? 'failed' : 'not_sent') : result;
  return records.update({ ...record, confirmation_email: { state, at, attempts } });
}

/** The record as accepted by the CRM. */
function delivered(record: ProposalRecord, deps: SubmitDeps, now: () => Date, reference?: string): ProposalRecord {
  const { next_attempt_at: _next, ...delivery } = record.delivery;
  return {
    ...record,
    delivery: {
      ...delivery,
      crm: deps.crm.name,
      state: 'received',
      attempts: record.delivery.attempts + 1,
      delivered_at: now().toISOString(),
      ...(reference !== undefined && { crm_reference: reference }),
    },
  };
}

function replyFor(record: ProposalRecord, deps: SubmitDeps, outcome: CrmOutcome | undefined): Reply {
  const base = { requestId: record.request_id, receivedAt: record.received_at };
  switch (record.delivery.state) {
    case 'received':
      return json(
        201,
        receivedReplyBody({
          ...base,
          crm: record.delivery.crm,
          confirmationEmail: record.confirmation_email.state,
          partner: deps.partner,
        }),
      );
    case 'failed':
      return json(202, failedReplyBody({ ...base, confirmationEmail: record.confirmation_email.state }));
    case 'pending': {
      const retryAfter =
        (outcome && !outcome.ok ? outcome.retryAfterSeconds : undefined) ?? DEFAULT_RETRY_AFTER_SECONDS;
      return json(202, pendingReplyBody({ ...base, retryAfterSeconds: retryAfter }), {
        'Retry-After': String(retryAfter),
      });
    }
  }
}

/**
 * Ends the lease: final with the answer to replay, or pending for the next retry or sweep. Once
 * final, the request leaves the index of open work. After a store failure nothing is written:
 * the lease goes stale and the open marker stays for the sweep.
 */
export async function settle(store: SubmitDeps['store'], lease: KeyLease, result: OwedWorkResult): Promise<void> {
  if (result.storeFailed) {
    lease.abandon();
    return;
  }
  const { final, record, reply, marked } = result;
  const released = await lease.release(final ? { state: 'final', reply: toStored(reply) } : { state: 'pending' });
  // A marker left behind by a failed delete is settled by the next sweep.
  if (final && marked && released) await markSettled(store, record).catch(() => undefined);
}

function toStored(reply: Reply): StoredReply {
  return { status: reply.status, headers: reply.headers ?? {}, body: reply.body };
}
