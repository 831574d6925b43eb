/** Bodies of the submit replies: they claim an email only when it was sent, and promise nothing about programs. */
import type { Knowledge } from './knowledge.ts';

/** Each `confirmation_email` value: what the reply's `message` tells the person (below: what it means to an agent). */
export const CONFIRMATION_EMAIL_TO_PERSON = {
  sent: 'A confirmation email was sent to the address you gave.',
  not_sent:
    'The confirmation email is not sent yet; it follows as soon as it can be sent, without any action from you.',
  failed: 'The confirmation email could not be sent.',
  not_configured: 'No confirmation email is sent for this request.',
  limited:
    // Which limit held it back is not said: it would tell a flooder when the site's own budget is spent.
    'No confirmation email was sent for this request. Your request reaches the team all the same.',
} as const;

export type ConfirmationEmailState = keyof typeof CONFIRMATION_EMAIL_TO_PERSON;

/** Each submit `status`: what it means to an agent. */
export const STATUS_MEANINGS = {
  received: 'The customer-relationship system accepted the request. Treat this, and only this, as confirmation.',
  pending:
    'The request is stored safely but the customer-relationship system has not accepted it yet. It is delivered automatically, without any retry from you, and the confirmation email follows. Retrying with the same idempotency key and request is still safe: it returns the current outcome and never submits twice.',
  failed:
    "The request is stored safely, but the customer-relationship system did not accept it within the redelivery period. The partner's team was alerted and follows up by email; do not submit it again.",
  awaiting_confirmation:
    'The partner accepts only requests the person confirmed themselves: the request is stored but not sent to the customer-relationship system until the person presses "Yes, this was me" in the confirmation email, within 24 hours; unconfirmed, it is deleted. Tell the person to check their inbox; do not submit it again.',
} as const;

export const CONFIRMATION_EMAIL_MEANINGS = {
  sent: 'The confirmation email was accepted by the mail server. Only this value allows saying an email was sent.',
  not_sent:
    'No email was sent yet: the request is still pending, or the mail server could not be reached. The email is owed and is sent automatically once the request is received and the mail server answers.',
  failed:
    'The mail server refused the confirmation email (or it failed repeatedly); it will not be sent. The request itself is unaffected.',
  not_configured: 'This deployment sends no confirmation emails.',
  limited:
    'No confirmation email was sent because a sending limit held it back (data_handling.limits in the contract lists them; the reply does not say which). The request itself is stored and delivered as usual; keep the request_id as the reference.',
} as const satisfies Record<ConfirmationEmailState, string>;

export type CrmName = 'inbox' | 'hubspot' | 'webhook';

/** 201: the CRM accepted the request; `confirmation_email` reports the email separately. */
export function receivedReplyBody(r: {
  requestId: string;
  receivedAt: string;
  crm: CrmName;
  confirmationEmail: ConfirmationEmailState;
  /** How the reply names the partner (submit/partner.ts's Partner has these). */
  partner: { name: string; describedAs: string };
  /** The email carries the "Yes, this was me" and "Not me" links, and the person has not confirmed yet. */
  confirmLink?: boolean;
}) {
  const email = r.confirmationEmail;
  const link =
    email === 'sent' && r.confirmLink === true
      ? ' It has a link to confirm the request as yours ("Yes, this was me") and one to have it deleted ("Not me").'
      : '';
  return {
    status: 'received' as const,
    confirmation_email: email,
    request_id: r.requestId,
    received_at: r.receivedAt,
    crm: r.crm,
    message:
      `${r.partner.name}, ${r.partner.describedAs}, has received your proposal request. ` +
      `${CONFIRMATION_EMAIL_TO_PERSON[email]}${link}${email === 'sent' ? '' : ` Its reference, should you write about it, is ${r.requestId}.`} ` +
      'The team reviews each request and replies by email.',
  };
}

/** 202: stored, not yet accepted by the CRM; the same key and body retried later complete it. */
export function pendingReplyBody(r: {
  requestId: string;
  receivedAt: string;
  confirmationEmail: ConfirmationEmailState;
  retryAfterSeconds: number;
}) {
  const owed = r.confirmationEmail === 'not_sent';
  return {
    status: 'pending' as const,
    // What the record says: a confirmed or released request may have had its email, or none is owed.
    confirmation_email: r.confirmationEmail,
    request_id: r.requestId,
    received_at: r.receivedAt,
    retry_after_seconds: r.retryAfterSeconds,
    // For people, as every message: how an agent may ask again is the contract's (STATUS_MEANINGS.pending).
    message:
      "Stored safely; it is delivered to the partner's team automatically, without a retry from you" +
      (owed
        ? ', and the confirmation email follows. No confirmation email has been sent yet.'
        : `. ${CONFIRMATION_EMAIL_TO_PERSON[r.confirmationEmail]}`),
  };
}

/** 202 with status awaiting_confirmation: held until the person confirms (CONSENT_CONFIRMATION=required). */
export function awaitingReplyBody(r: {
  requestId: string;
  receivedAt: string;
  confirmationEmail: ConfirmationEmailState;
}) {
  return {
    status: 'awaiting_confirmation' as const,
    confirmation_email: r.confirmationEmail,
    request_id: r.requestId,
    received_at: r.receivedAt,
    message:
      'Saved, and waiting for you: press "Yes, this was me" in the confirmation email within 24 hours and the request is sent; otherwise it is deleted. ' +
      CONFIRMATION_EMAIL_TO_PERSON[r.confirmationEmail],
  };
}

/** 202 with status failed: stored, the CRM never accepted it; the partner's team follows up by hand. */
export function failedReplyBody(r: {
  requestId: string;
  receivedAt: string;
  confirmationEmail: ConfirmationEmailState;
}) {
  return {
    status: 'failed' as const,
    confirmation_email: r.confirmationEmail,
    request_id: r.requestId,
    received_at: r.receivedAt,
    message:
      "Saved, but it could not be passed on to the partner's team automatically. The team was alerted and follows " +
      `up by email; there is no need to send it again. Its reference, should you write about it, is ${r.requestId}.`,
  };
}

export function exampleSubmitReply(k: Knowledge) {
  return receivedReplyBody({
    requestId: '5b0e4f7e-8a5c-4d1e-9f2a-3c6d7e8f9a0b',
    receivedAt: '2026-11-20T09:30:00.000Z',
    crm: 'inbox',
    confirmationEmail: 'sent',
    partner: { name: k.partner.name, describedAs: k.partner.described_as },
  });
}
