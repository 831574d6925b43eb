/** Details of the submit's own problems; they never repeat what the caller sent. */
export const KEY_REUSED_DETAIL =
  'This Idempotency-Key was already used with a different request body. Send a new key for a new submission.';

export const STORE_UNAVAILABLE_DETAIL =
  'The request could not be stored: the store did not answer. Nothing was sent or emailed. Retry with the same Idempotency-Key and body after Retry-After seconds; the retry never creates a second request.';

export const KEY_IN_USE_DETAIL =
  'Another request with this Idempotency-Key is still being processed. Retry with the same key and body after Retry-After seconds.';
