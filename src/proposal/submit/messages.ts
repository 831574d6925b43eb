/**
 * Human sentences of the submit replies. They claim an email only when it was sent, describe
 * the partner as independent, and promise nothing about programs, funding or approval.
 */
import type { Partner } from './partner.ts';
import { CONFIRMATION_EMAIL_TO_PERSON, type ConfirmationEmailState } from '../confirmation-email-states.ts';

export function receivedMessage(partner: Pick<Partner, 'name' | 'describedAs'>, email: ConfirmationEmailState): string {
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

export const KEY_REUSED_DETAIL =
  'This Idempotency-Key was already used with a different request body. Send a new key for a new submission.';

export const STORE_UNAVAILABLE_DETAIL =
  'The request could not be stored: the store did not answer. Nothing was sent or emailed. Retry with the same Idempotency-Key and body after Retry-After seconds; the retry never creates a second request.';

export const KEY_IN_USE_DETAIL =
  'Another request with this Idempotency-Key is still being processed. Retry with the same key and body after Retry-After seconds.';
