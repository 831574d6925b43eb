/**
 * What a stored request owes, as steps in order: its CRM record and confirmation email (what the
 * reply reports), the sales notice by email and by chat, the CRM's update once the person confirmed,
 * the alert once a step gave up, and, for a request strict mode holds, its erasure when nobody confirmed.
 */
import { logEvent } from '../log.ts';
import { removePointer } from '../store/keys.ts';
import { confirmationLimit, pastHourLimit, hourOf, suspect } from '../limits/send-gates.ts';
import { consentLinks, linksMatch, linkToken, linkUrl } from '../notify/links.ts';
import { alertMessage, confirmationMail, noticeMessage } from '../notify/messages.ts';
import { crmPayload } from '../submit/crm.ts';
import {
  isProposalRecord,
  REQUESTS_PREFIX,
  type Channels,
  type NotifyState,
  type ProposalRecord,
} from '../submit/record.ts';
import { askCrm, inDigest, owedChannels, sendMail, tellSales, type Ctx } from './context.ts';
import type { Kind, Step } from './engine.ts';
import { oweErasure, oweJob } from './jobs.ts';

type R = ProposalRecord;
type RequestStep = Step<R, Ctx>;

/** Only the CRM a request was accepted for delivers it: another configuration leaves it (and says so). */
function acceptedHere(r: R, ctx: Ctx): boolean {
  if (ctx.crm.name === r.delivery.crm) return true;
  logEvent('crm_not_accepted_here', {
    request_id: r.request_id,
    accepted_for: r.delivery.crm,
    configured: ctx.crm.name,
  });
  return false;
}

export const delivered = (r: R, at: string, reference?: string): R => ({
  ...r,
  delivery: {
    crm: r.delivery.crm,
    state: 'received',
    delivered_at: at,
    ...(reference !== undefined && { crm_reference: reference }),
  },
});

const crm: RequestStep = {
  name: 'crm',
  // A held request reaches no CRM until the person confirms.
  owed: (r) => r.delivery.state === 'pending' && r.hold === undefined,
  async run(r, ctx, owner) {
    if (!acceptedHere(r, ctx)) return { retry: true, reason: 'not-accepted-here' };
    if (ctx.crm.storesRecord) return { done: (c) => delivered(c, ctx.now().toISOString()) };
    return askCrm(
      ctx,
      owner,
      (signal) => ctx.crm.deliver(crmPayload(r), signal),
      (c, reference) => delivered(c, ctx.now().toISOString(), reference),
      (c, kind) => ({ ...c, delivery: { ...c.delivery, last_error_kind: kind } }),
    );
  },
  gaveUp: (r, ctx) => ({ ...r, delivery: { ...r.delivery, state: 'failed', failed_at: ctx.now().toISOString() } }),
};

/** A held request whose confirmation cannot be sent is delivered as optional mode would, never erased unasked. */
const released = (r: R, why: NonNullable<R['consent']['released_unconfirmed']>): R => {
  if (r.hold === undefined) return r;
  logEvent('consent_hold_released', { request_id: r.request_id, why });
  const { hold: _hold, ...rest } = r;
  return { ...rest, consent: { ...r.consent, released_unconfirmed: why } };
};

const emailState =
  (state: R['confirmation_email']['state'], at: string, extra = {}) =>
  (r: R): R => ({
    ...(state === 'sent' ? r : released(r, state === 'limited' ? 'limit' : state)),
    confirmation_email: { state, at, ...extra },
  });

const confirmation: RequestStep = {
  name: 'confirmation_email',
  // A held request's email is how the person confirms: sent while it waits.
  owed: (r) => (r.delivery.state === 'received' || r.hold !== undefined) && r.confirmation_email.state === 'not_sent',
  async run(r, ctx, owner) {
    const at = ctx.now().toISOString();
    const { secret } = ctx.config.consent;
    if (r.hold !== undefined && (ctx.mailer === null || secret === undefined)) {
      // Strict mode that cannot ask the person: held, and the day's configuration alert owed.
      const variable = secret === undefined ? 'CONSENT_SECRET' : 'SMTP_URL';
      await oweJob(ctx, 'config', at.slice(0, 10), { variable });
      return { retry: true, reason: 'strict-misconfigured' };
    }
    if (ctx.mailer === null) return { done: emailState('not_configured', at) };
    const limit = await confirmationLimit({ store: ctx.store, limits: ctx.config.limits, now: ctx.now }, r);
    if (limit !== undefined) {
      logEvent('confirmation_email_limited', { request_id: r.request_id, limit });
      if (limit === 'per_day') await oweJob(ctx, 'day-limit-alert', at.slice(0, 10));
      return { done: emailState('limited', at, { limit }) };
    }
    let record = r;
    // Links only when they will match: made anew, and stored first, when the secret changed since.
    if (secret !== undefined && (r.consent_links === undefined || !linksMatch(secret, r.request_id, r.consent_links)))
      record = await owner.save({ ...r, consent_links: consentLinks(secret, r.request_id, r.received_at) });
    const link = (answer: 'confirm' | 'deny') =>
      linkUrl(ctx.partner.proposalUrl, r.request_id, answer, linkToken(secret!, r.request_id, answer));
    const links = secret === undefined ? undefined : { confirm: link('confirm'), deny: link('deny') };
    const to = { to: r.contact.email, replyTo: ctx.partner.email, messageId: r.request_id };
    const mail = { ...to, ...confirmationMail(record, ctx.partner, links) };
    const result = await sendMail(ctx, owner, mail, { request_id: r.request_id });
    if (result === 'retry') return { retry: true, reason: 'mail' };
    if (result === 'failed') return { failed: emailState('failed', ctx.now().toISOString()) };
    return { done: emailState('sent', ctx.now().toISOString()) };
  },
  gaveUp: (r, ctx) => emailState('failed', ctx.now().toISOString())(r),
};

const setChannel =
  (field: 'notification' | 'alert', channel: keyof Channels, state: NotifyState) =>
  (r: R): R => ({ ...r, [field]: { ...r[field]!, [channel]: state } });

function salesStep(field: 'notification' | 'alert', channel: keyof Channels): RequestStep {
  return {
    name: `${field === 'notification' ? 'notice' : 'alert'}_${channel}`,
    // Sales hear of a held request once the person confirmed it.
    owed: (r) => r[field]?.[channel] === 'owed' && !(field === 'notification' && r.hold !== undefined),
    async run(r, ctx, owner) {
      const gates = { store: ctx.store, limits: ctx.config.limits, now: ctx.now };
      // Counted once per request (a retry keeps its place): past the hour's limit, the digest tells of it.
      if (field === 'notification' && (await pastHourLimit(gates, r.request_id, suspect(r, ctx.config.limits)))) {
        await oweJob(ctx, 'digest', hourOf(ctx.now()));
        logEvent('notice_in_digest', { request_id: r.request_id });
        return { done: (c) => ({ ...c, notification: inDigest(c.notification) }) };
      }
      const message = field === 'alert' ? alertMessage(r, ctx.partner, r.alert!.reason) : noticeMessage(r, ctx.partner);
      const result = await tellSales(ctx, owner, channel, message, r.request_id, { request_id: r.request_id });
      if (result === 'retry') return { retry: true, reason: channel };
      if (result === 'failed') return { failed: setChannel(field, channel, 'failed') };
      return { done: setChannel(field, channel, result) };
    },
    gaveUp: setChannel(field, channel, 'failed'),
  };
}

const consentUpdate: RequestStep = {
  name: 'consent_update',
  // Before the CRM has the request, the delivery itself carries the confirmed consent.
  owed: (r) => r.consent_update?.state === 'owed' && r.delivery.state === 'received',
  async run(r, ctx, owner) {
    const sent = (c: R): R => ({ ...c, consent_update: { state: 'sent' } });
    if (ctx.crm.storesRecord) return { done: sent };
    if (!acceptedHere(r, ctx)) return { retry: true, reason: 'not-accepted-here' };
    return askCrm(ctx, owner, (signal) => ctx.crm.deliver(crmPayload(r), signal, 'consent-confirmed'), sent);
  },
  gaveUp: (r) => ({ ...r, consent_update: { state: 'failed' } }),
};

/** "Not me" pressed: the erasure's work owed first (the CRM's deletion, sales' word), then the request erased. */
const withdrawn: RequestStep = {
  name: 'withdrawn',
  owed: (r) => r.consent_links?.used?.answer === 'deny',
  async run(r, ctx) {
    await oweErasure(ctx, r);
    logEvent('consent_denied', { request_id: r.request_id });
    return { done: () => null };
  },
};

const holdExpiry: RequestStep = {
  name: 'hold',
  owed: (r) => r.hold?.until ?? false,
  async run(r) {
    logEvent('consent_hold_expired', { request_id: r.request_id });
    return { done: () => null };
  },
};

export const REQUEST_STEPS: readonly RequestStep[] = [
  withdrawn,
  crm,
  confirmation,
  salesStep('notification', 'email'),
  salesStep('notification', 'chat'),
  consentUpdate,
  salesStep('alert', 'email'),
  salesStep('alert', 'chat'),
  holdExpiry,
];
/** What a submit's reply waits for: what it reports. */
export const REPLY_STEPS = 3;

export const REQUESTS: Kind<R, Ctx> = {
  prefix: REQUESTS_PREFIX,
  is: isProposalRecord,
  id: (r) => r.request_id,
  steps: REQUEST_STEPS,
  // Sales are alerted once, on whatever channel is configured, so a person follows up.
  onGiveUp: (r, step, ctx) =>
    r.alert !== undefined || step.startsWith('alert') ? r : { ...r, alert: { ...owedChannels(ctx), reason: step } },
  erase: (r, ctx) => removePointer(ctx.store, r.idempotency_entry, r.request_id),
};
