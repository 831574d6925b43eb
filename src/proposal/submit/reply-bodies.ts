/** Bodies of the submit replies; the contract publishes an example built by the same code. */
import { failedMessage, pendingMessage, receivedMessage } from './messages.ts';
import type { Partner } from './partner.ts';
import type { ConfirmationEmailState, CrmName } from './record.ts';

/** 201: the CRM accepted the request; `confirmation_email` reports the email separately. */
export function receivedReplyBody(r: {
  requestId: string;
  receivedAt: string;
  crm: CrmName;
  confirmationEmail: ConfirmationEmailState;
  partner: Pick<Partner, 'name' | 'describedAs'>;
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
