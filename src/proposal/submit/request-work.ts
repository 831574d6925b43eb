/**
 * What a stored request owes, as steps of the owed-work engine: its CRM record and confirmation email
 * (what the reply reports), then the sales notice and, when a step gave up, the alert (after the reply).
 */
import { json, type Reply } from '../../contract/http.ts';
import {
  awaitingReplyBody,
  failedReplyBody,
  pendingReplyBody,
  receivedReplyBody,
} from '../../contract/submit-replies.ts';
import { deliverWithin, type CrmOutcome } from './crm.ts';
import type { SubmitDeps } from './config.ts';
import { nextAttempt } from './attempts.ts';
import { completeJob, oweJob } from './jobs.ts';
import { logEvent } from './log.ts';
import { MAIL_EFFECT_MS } from './mailer.ts';
import { afterAttempt, CHAT_EFFECT_MS, isOwed, noticeMessage, sendOnOwedChannels } from './notification.ts';
import { owedSteps, type Step } from './owed-work.ts';
import type { NotificationStatus, NotifyState, ProposalRecord } from './record.ts';
import { confirmationLimit, hourOf, pastHourLimit } from './send-gates.ts';

/** Retry hint of a 202 when no CRM attempt is scheduled (a request stored before backoff was recorded). */
const DEFAULT_RETRY_AFTER_SECONDS = 30;
const SALES_MESSAGE_MS = Math.max(MAIL_EFFECT_MS, CHAT_EFFECT_MS);

/** Sales are alerted once a step gave up; with no notice channel configured, by whatever is configured now. */
function withAlert(record: ProposalRecord, deps: SubmitDeps): ProposalRecord {
  if (record.alert !== undefined) return record;
  const channel = (state?: NotifyState): NotifyState =>
    state === undefined || state === 'not_configured' ? 'not_configured' : 'owed';
  const since = deps.now().toISOString();
  const alert = { email: channel(record.notification?.email), chat: channel(record.notification?.chat), attempts: 0 };
  return { ...record, alert: { ...alert, since } };
}

const crmStep: Step<ProposalRecord> = {
  name: 'crm',
  // A held request (CONSENT_CONFIRMATION=required) reaches no CRM until the person confirms.
  owed: (r) => (r.delivery.state === 'pending' && r.hold === undefined ? r.delivery : undefined),
  async prepare(record, deps) {
    const accepted = record.delivery.crm;
    if (deps.crm.name !== accepted) {
      // Only the configuration it was accepted under delivers a request: a sweep of another one leaves it.
      logEvent('crm_not_accepted_here', {
        request_id: record.request_id,
        accepted_for: accepted,
        configured: deps.crm.name,
      });
      const next = nextAttempt(record.delivery, record.received_at, deps);
      if (next.gaveUp) return { settle: failedDelivery(record, deps, record.delivery.attempts) };
      return { settle: { ...record, delivery: { ...record.delivery, next_attempt_at: next.next_attempt_at } } };
    }
    return {
      boundMs: deps.crmTimeoutMs,
      effect: async () => {
        const outcome = await deliverWithin(deps.crm, record, deps.crmTimeoutMs);
        return (current: ProposalRecord) =>
          outcome.ok ? delivered(current, deps, outcome.reference) : refused(current, deps, outcome);
      },
    };
  },
};

const confirmationStep: Step<ProposalRecord> = {
  name: 'confirmation_email',
  // A held request's email is how the person confirms: sent while it waits.
  owed: (r) =>
    (r.delivery.state === 'received' || r.hold !== undefined) && r.confirmation_email.state === 'not_sent'
      ? r.confirmation_email
      : undefined,
  async prepare(record, deps) {
    const at = deps.now().toISOString();
    const { mailer } = deps;
    if (!mailer) return { settle: { ...record, confirmation_email: { state: 'not_configured', at } } };
    const limit = await confirmationLimit(record, deps);
    if (limit !== undefined) {
      logEvent('confirmation_email_limited', { request_id: record.request_id, limit });
      const alert = limit === 'per_day' ? await oweJob('day-limit-alert', at.slice(0, 10), deps) : undefined;
      // The day's alert is due now: sent once this request's lease is given up, not at the next sweep.
      return {
        settle: { ...record, confirmation_email: { state: 'limited', at, limit } },
        ...(alert !== undefined && { followUp: () => completeJob(alert, deps) }),
      };
    }
    return {
      boundMs: MAIL_EFFECT_MS,
      effect: async () => {
        const result = await mailer.sendConfirmation(record, deps.partner);
        return (current: ProposalRecord) => {
          const sentAt = deps.now().toISOString();
          const attempts = (current.confirmation_email.attempts ?? 0) + 1;
          if (result !== 'retry') return { ...current, confirmation_email: { state: result, at: sentAt, attempts } };
          const next = nextAttempt(current.confirmation_email, current.received_at, deps);
          if (next.gaveUp) {
            logEvent('confirmation_email_given_up', { request_id: current.request_id, attempts });
            return withAlert({ ...current, confirmation_email: { state: 'failed', at: sentAt, attempts } }, deps);
          }
          const state = { state: 'not_sent' as const, at: sentAt, attempts, next_attempt_at: next.next_attempt_at };
          return { ...current, confirmation_email: state };
        };
      },
    };
  },
};

/** The notice, or the alert: sent on each owed channel; the notice past the hour's limit goes to its digest. */
function salesMessageStep(kind: 'notification' | 'alert'): Step<ProposalRecord> {
  return {
    name: kind,
    // Sales hear of a held request once the person confirmed it.
    owed: (r) => (isOwed(r[kind]) && !(kind === 'notification' && r.hold !== undefined) ? r[kind] : undefined),
    async prepare(record, deps) {
      const status = record[kind] as NotificationStatus;
      if (kind === 'notification' && status.attempts === 0) {
        const now = deps.now();
        if (await pastHourLimit(record, deps, now)) {
          await oweJob('digest', hourOf(now), deps);
          const held = (state: NotifyState): NotifyState => (state === 'owed' ? 'in_digest' : state);
          logEvent('notice_in_digest', { request_id: record.request_id, hour: hourOf(now) });
          return {
            settle: { ...record, notification: { ...status, email: held(status.email), chat: held(status.chat) } },
          };
        }
      }
      const message = noticeMessage(kind, record, deps.partner);
      return {
        boundMs: SALES_MESSAGE_MS,
        effect: async () => {
          const results = await sendOnOwedChannels(status, message, deps, record.request_id);
          return (current: ProposalRecord) => {
            const since = status.since ?? current.received_at;
            const after = afterAttempt(current[kind] as NotificationStatus, results, since, deps);
            if (after.gaveUp) logEvent(`${kind}_given_up`, { request_id: current.request_id });
            const next = { ...current, [kind]: after.status };
            return after.gaveUp && kind === 'notification' ? withAlert(next, deps) : next;
          };
        },
      };
    },
  };
}

/**
 * The CRM's update of a request the person confirmed (consent_update): the same request, its consent
 * now first_party, under an id of its own; owed once the CRM has the request (before, the delivery
 * itself carries the confirmed consent). The inbox is the record: nothing to send.
 */
const consentUpdateStep: Step<ProposalRecord> = {
  name: 'consent_update',
  owed: (r) => (r.consent_update?.state === 'owed' && r.delivery.state === 'received' ? r.consent_update : undefined),
  async prepare(record, deps) {
    const update = record.consent_update!;
    if (deps.crm.storesRecord) return { settle: { ...record, consent_update: { ...update, state: 'sent' } } };
    return {
      boundMs: deps.crmTimeoutMs,
      effect: async () => {
        const outcome = await deliverWithin(deps.crm, record, deps.crmTimeoutMs, 'consent-confirmed');
        return (current: ProposalRecord) => {
          const status = current.consent_update!;
          const attempts = (status.attempts ?? 0) + 1;
          if (outcome.ok) return { ...current, consent_update: { ...status, state: 'sent', attempts } };
          const retryAfter = outcome.retryAfterSeconds;
          const next = nextAttempt(status, status.since, deps, retryAfter);
          logEvent(next.gaveUp ? 'crm_delivery_failed' : 'crm_delivery_pending', {
            request_id: current.request_id,
            event: status.event,
            kind: outcome.kind,
          });
          if (next.gaveUp)
            return withAlert({ ...current, consent_update: { ...status, state: 'failed', attempts } }, deps);
          return { ...current, consent_update: { ...status, attempts, next_attempt_at: next.next_attempt_at } };
        };
      },
    };
  },
};

/** A held request the person never confirmed: marked expired once its hold ends; the sweep erases it. */
const holdStep: Step<ProposalRecord> = {
  name: 'hold',
  owed: (r) => (r.hold !== undefined && r.hold.expired === undefined ? { not_before: r.hold.until } : undefined),
  async prepare(record) {
    logEvent('consent_hold_expired', { request_id: record.request_id });
    return { settle: { ...record, hold: { ...record.hold!, expired: true } } };
  },
};

/** What the reply waits for: what it reports. */
export const REPLY_STEPS: readonly Step<ProposalRecord>[] = [crmStep, confirmationStep];
/** What follows the reply. */
export const AFTER_REPLY_STEPS: readonly Step<ProposalRecord>[] = [
  salesMessageStep('notification'),
  consentUpdateStep,
  salesMessageStep('alert'),
  holdStep,
];
export const REQUEST_STEPS = [...REPLY_STEPS, ...AFTER_REPLY_STEPS];

/** Does the record still owe anything? */
export const owes = (record: ProposalRecord) => owedSteps(REQUEST_STEPS, record, new Date(0)).owes;

/** The record as accepted by the CRM. */
export function delivered(record: ProposalRecord, deps: SubmitDeps, reference?: string): ProposalRecord {
  const { next_attempt_at: _next, attempts, ...delivery } = record.delivery;
  const ref = reference === undefined ? {} : { crm_reference: reference };
  const at = deps.now().toISOString();
  return { ...record, delivery: { ...delivery, state: 'received', attempts: attempts + 1, delivered_at: at, ...ref } };
}

/** After a refusal: retried after a backoff, or failed past REDELIVERY_MAX_HOURS, owing sales an alert. */
function refused(record: ProposalRecord, deps: SubmitDeps, outcome: CrmOutcome & { ok: false }): ProposalRecord {
  const next = nextAttempt(record.delivery, record.received_at, deps, outcome.retryAfterSeconds);
  const delivery = { ...record.delivery, attempts: next.attempts, last_error_kind: outcome.kind };
  const fields = {
    request_id: record.request_id,
    crm: record.delivery.crm,
    kind: outcome.kind,
    attempts: next.attempts,
  };
  logEvent(next.gaveUp ? 'crm_delivery_failed' : 'crm_delivery_pending', fields);
  if (next.gaveUp) return failedDelivery({ ...record, delivery }, deps, next.attempts);
  return { ...record, delivery: { ...delivery, next_attempt_at: next.next_attempt_at } };
}

function failedDelivery(record: ProposalRecord, deps: SubmitDeps, attempts: number): ProposalRecord {
  const { next_attempt_at: _next, ...delivery } = record.delivery;
  const failed = { ...delivery, attempts, state: 'failed' as const, failed_at: deps.now().toISOString() };
  return withAlert({ ...record, delivery: failed }, deps);
}

/** What the record says, never more; a pending one names when the CRM is tried again. */
export function replyFor(record: ProposalRecord, deps: SubmitDeps): Reply {
  const base = { requestId: record.request_id, receivedAt: record.received_at };
  const confirmationEmail = record.confirmation_email.state;
  if (record.hold !== undefined) return json(202, awaitingReplyBody({ ...base, confirmationEmail }));
  switch (record.delivery.state) {
    case 'received': {
      const { crm } = record.delivery;
      const confirmLink = record.consent_links !== undefined && record.consent.vouched_by !== 'first_party';
      return json(201, receivedReplyBody({ ...base, crm, confirmationEmail, partner: deps.partner, confirmLink }));
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
