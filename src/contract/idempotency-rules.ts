/** The rules of the Idempotency-Key header, for its parser, the key store, the contract and the OpenAPI description. */

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** One key character: printable ASCII without space (0x21-0x7E) and without the double quote. */
export const KEY_CHAR_CLASS = '[\\x21\\x23-\\x7e]';

/** Keys are honoured this long; after that a reuse starts a new submission. */
export const IDEMPOTENCY_RETENTION_HOURS = 24;
export const KEY_RETENTION_MS = IDEMPOTENCY_RETENTION_HOURS * 60 * 60 * 1000;

/** The whole value as a JSON Schema pattern: a bare key or one in double quotes. */
const KEY = `${KEY_CHAR_CLASS}{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}`;
export const IDEMPOTENCY_KEY_PATTERN = `^(?:${KEY}|"${KEY}")$`;

/**
 * Retry-After of a 503. A 503 leaves no claim unless a write landed after its answer was lost for
 * good; such a claim ends with its invocation (src/proposal/work/engine.ts), and a retry that meets
 * it waits or gets 409 with the seconds it has left.
 */
export const STORE_RETRY_AFTER_SECONDS = 10;
