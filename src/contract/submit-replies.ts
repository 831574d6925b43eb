/**
 * Bodies of the submit replies and their sentences: the pipeline sends them (submit/), the
 * contract publishes an example built by the same code, and the reply pages read them. The
 * sentences claim an email only when it was sent, describe the partner as independent, and
 * promise nothing about programs, funding or approval.
 */
import { CONFIRMATION_EMAIL_TO_PERSON, type ConfirmationEmailState } from './confirmation-email-states.ts';

/** The customer-relationship systems a request can be delivered to. */
export type CrmName = 'inbox' | 'hubspot' | 'webhook';

/** How a reply names the partner (submit/partner.ts's Partner has these). */
interface PartnerNaming {
  name: string;
  describedAs: string;
}

export function receivedMessage(partner: PartnerNaming, email: ConfirmationEmailState): string {
  return (
    `${partner.name}, ${partner.describedAs}, has received your proposal request. ` +
    `${CONFIRMATION_EMAIL_TO_PERSON[email]}${email === 'sent' ? '' : ' Keep the request_id as your reference.'} ` +
    'The team reviews each request and replies by email.'
  );
}

export function pendingMessage(): string {
  return (
    "Stored safely; it is delivered to the partner's customer-relationship system automatically, without a retry, " +
    'and the confirmation email follows. You may still retry with the same Idempotency-Key and the same body after ' +
    'retry_after_seconds to learn the outcome: the retry continues this request (same request_id) and never creates a ' +
    'second one. No confirmation email has been sent yet.'
  );
}

export function failedMessage(): string {
  return (
    "Stored safely, but the partner's customer-relationship system did not accept it in time. The partner's team " +
    'was alerted and follows up by email; do not submit it again. Keep the request_id as your reference.'
  );
}

/** 201: the CRM accepted the request; `confirmation_email` reports the email separately. */
export function receivedReplyBody(r: {
  requestId: string;
  receivedAt: string;
  crm: CrmName;
  confirmationEmail: ConfirmationEmailState;
  partner: PartnerNaming;
}) {
  return {
    status: 'received' as const,
    confirmation_email: r.confirmationEmail,
    request_id: r.requestId,
    received_at: r.receivedAt,
    crm: r.crm,
    message: receivedMessage(r.partner, r.confirmationEmail),
  };
}

/** 202: stored, not yet accepted by the CRM; the same key and body retried later complete it. */
export function pendingReplyBody(r: { requestId: string; receivedAt: string; retryAfterSeconds: number }) {
  return {
    status: 'pending' as const,
    confirmation_email: 'not_sent' as const,
    request_id: r.requestId,
    received_at: r.receivedAt,
    retry_after_seconds: r.retryAfterSeconds,
    message: pendingMessage(),
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
    message: failedMessage(),
  };
}
