/**
 * What a stored request still owes, in order under its lease: CRM delivery, confirmation, sales
 * messages. The sender, its retries and the sweep all run this code, so each effect is started by one
 * owner at a time and recorded before the next; the CRM and the email are repeated only when a
 * recording write stayed unknown (docs/operating.md).
 */
import { json, type Reply } from '../../contract/http.ts';
import { deliverWithin, type CrmOutcome } from './crm.ts';
import type { RedeliveryPolicy, SubmitDeps } from './config.ts';
import { LeaseLostError, type LeaseTerms, type RecordLease } from '../store/record-lease.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { markSettled, openMarker } from '../store/open-index.ts';
import { MAIL_EFFECT_MS } from './mailer.ts';
import { logEvent } from './log.ts';
import { dailyLimitAlert, hourlyDigest, isOwed, noticeMessage, sendOwedMessage } from './notification.ts';
import type { SalesMessage } from './notification.ts';
import { confirmationEmail, digestCounts, digestDue, digestIfPastLimit } from './send-gates.ts';
import type { NotificationStatus, NotifyState, ProposalRecord } from './record.ts';
import { failedReplyBody, pendingReplyBody, receivedReplyBody } from '../../contract/submit-replies.ts';

/** Retry hint of a 202 when no CRM attempt is scheduled (a request stored before backoff was recorded). */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** The lease terms of this deployment: the longest effect an owner starts is the CRM's or the SMTP's. */
export function leaseTerms(deps: SubmitDeps): LeaseTerms {
  return { store: deps.store, effectMs: Math.max(deps.crmTimeoutMs, MAIL_EFFECT_MS), now: deps.now };
}

/**
 * Does what the leased request owes, recording each effect before the next, and gives the lease up.
 * `stopped`: the store failed or the lease was lost on the way; `record` is what the store last
 * confirmed, and the next owner (a retry, the sweep) continues from there.
 * `respectBackoff`: the CRM is not tried before the record's next_attempt_at.
 */
export async function completeOwedWork(deps: SubmitDeps, lease: RecordLease, respectBackoff: boolean) {
  try {
    await doOwedWork(deps, lease, respectBackoff);
    await lease.release(lease.record);
  } catch (error) {
    const stopped = error instanceof StoreUnavailable || error instanceof LeaseLostError;
    if (!stopped) await lease.release(lease.record).catch(() => undefined);
    if (!stopped) throw error;
    const { request_id } = lease.record;
    if (error instanceof LeaseLostError) logEvent('lease_lost', { request_id });
    else logEvent('store_unavailable', { request_id, operation: error.operation, reason: error.reason });
    return { record: lease.record, reply: replyFor(lease.record, deps), stopped: error };
  }
  const record = lease.record;
  // Nothing owed: the request leaves the index of open work; a failed delete is settled by the next sweep.
  if (!owes(record)) await markSettled(deps.store, openMarker(record.request_id)).catch(() => undefined);
  return { record, reply: replyFor(record, deps) };
}

async function doOwedWork(deps: SubmitDeps, lease: RecordLease, respectBackoff: boolean) {
  const { now, crm } = deps;
  if (lease.record.delivery.state === 'pending' && !(respectBackoff && backoffAhead(lease.record, now()))) {
    await lease.makeTimeForEffect();
    const outcome = await deliverWithin(crm, lease.record, deps.crmTimeoutMs);
    // Durable before the email: the next owner sees "received" and never delivers again.
    await lease.save(
      outcome.ok ? delivered(lease.record, deps, outcome.reference) : refused(lease.record, deps, outcome),
    );
  }

  /** One owed step: enough lease for it first, then what changed is stored before the next. */
  const step = async (change: (current: ProposalRecord) => Promise<Partial<ProposalRecord> | undefined>) => {
    await lease.makeTimeForEffect();
    const changed = await change(lease.record);
    if (changed !== undefined) await lease.save({ ...lease.record, ...changed });
  };
  const send = <S extends NotificationStatus>(status: S, message: SalesMessage) =>
    sendOwedMessage(status, message, deps, lease.record.request_id);

  if (lease.record.delivery.state === 'received' && lease.record.confirmation_email.state === 'not_sent') {
    await step((current) => confirmationEmail(current, deps));
  }
  // After the delivery, so the notice says whether the CRM has it; counted before the first attempt only.
  const notice = lease.record.notification;
  if (isOwed(notice) && notice.attempts === 0) await step((current) => digestIfPastLimit(current, notice, deps));
  for (const kind of ['notification', 'alert'] as const) {
    const status = lease.record[kind];
    if (isOwed(status)) {
      const message = noticeMessage(kind, lease.record, deps.partner);
      await step(async () => ({ [kind]: await send(status, message) }));
    }
  }
  const dayAlert = lease.record.daily_limit_alert;
  if (isOwed(dayAlert)) {
    const message = dailyLimitAlert(dayAlert.day, deps.limits.perDay, deps.partner);
    await step(async () => ({ daily_limit_alert: await send(dayAlert, message) }));
  }
  // The hour's digest, once the hour is over: until then it stays owed and the sweep comes back for it.
  const digest = lease.record.digest;
  if (isOwed(digest) && digestDue(digest.hour, now())) {
    await step(async () => {
      const counts = await digestCounts(deps.store, digest.hour, deps.limits, now());
      const sent = await send(digest, hourlyDigest(digest.hour, counts, deps.limits.noticesPerHour, deps.partner));
      logEvent('digest_sent', { request_id: lease.record.request_id, hour: digest.hour, more: counts.more });
      return { digest: sent };
    });
  }
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
export function delivered(record: ProposalRecord, deps: SubmitDeps, reference?: string): ProposalRecord {
  const { next_attempt_at: _next, attempts, ...delivery } = record.delivery;
  const ref = reference === undefined ? {} : { crm_reference: reference };
  const at = deps.now().toISOString();
  const crm = deps.crm.name;
  return {
    ...record,
    delivery: { ...delivery, crm, state: 'received', attempts: attempts + 1, delivered_at: at, ...ref },
  };
}

/** After a refusal: retried after a backoff, or failed past REDELIVERY_MAX_HOURS, owing sales an alert. */
function refused(record: ProposalRecord, deps: SubmitDeps, outcome: CrmOutcome & { ok: false }): ProposalRecord {
  const attempts = record.delivery.attempts + 1;
  const at = deps.now();
  const gaveUp = at.getTime() - Date.parse(record.received_at) >= deps.redelivery.maxAgeMs;
  const delivery = { ...record.delivery, crm: deps.crm.name, attempts, last_error_kind: outcome.kind };
  const fields = { request_id: record.request_id, crm: deps.crm.name, kind: outcome.kind, attempts };
  logEvent(gaveUp ? 'crm_delivery_failed' : 'crm_delivery_pending', fields);
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

/** What the record says, never more; a pending one names when the CRM is tried again. */
export function replyFor(record: ProposalRecord, deps: SubmitDeps): Reply {
  const base = { requestId: record.request_id, receivedAt: record.received_at };
  const confirmationEmail = record.confirmation_email.state;
  switch (record.delivery.state) {
    case 'received': {
      const { crm } = record.delivery;
      return json(201, receivedReplyBody({ ...base, crm, confirmationEmail, partner: deps.partner }));
    }
    case 'failed':
      return json(202, failedReplyBody({ ...base, confirmationEmail }));
    case 'pending': {
      const next = Date.parse(record.delivery.next_attempt_at ?? '');
      const retryAfter = Number.isNaN(next)
        ? DEFAULT_RETRY_AFTER_SECONDS
        : Math.max(1, Math.ceil((next - deps.now().getTime()) / 1000));
      return json(202, pendingReplyBody({ ...base, retryAfterSeconds: retryAfter }), {
        'Retry-After': String(retryAfter),
      });
    }
  }
}

/** base·2^(attempts−1), at most an hour (REDELIVERY_BACKOFF_SECONDS' maximum), never below the CRM's Retry-After. */
function backoffMs(policy: RedeliveryPolicy, attempts: number, retryAfterSeconds = 0): number {
  return Math.max(Math.min(policy.backoffBaseMs * 2 ** Math.max(0, attempts - 1), 3_600_000), retryAfterSeconds * 1000);
}
