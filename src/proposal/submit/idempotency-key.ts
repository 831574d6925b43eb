/**
 * The Idempotency-Key header (IETF draft): a Structured Field string ("...") or, as clients also send,
 * a bare token; both mean the same key.
 */
import { problem, type Reply } from '../../contract/http.ts';
import { KEY_CHAR_CLASS, MAX_IDEMPOTENCY_KEY_LENGTH } from '../../contract/idempotency-rules.ts';

export type IdempotencyKeyResult = { ok: true; key: string } | { ok: false; reply: Reply };

const KEY_CHARS = new RegExp(`^${KEY_CHAR_CLASS}+$`);

const RULE =
  `An idempotency key is 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces, ` +
  'either bare or inside one pair of double quotes.';

/** Parses the header value; details name the broken rule and never echo the value. */
export function parseIdempotencyKey(header: string | null): IdempotencyKeyResult {
  if (header === null) {
    return invalid('missing-idempotency-key', 'A submit needs an idempotency key: one stable value per submission.');
  }
  // Fetch's Headers already trims surrounding whitespace; trim here too for direct callers.
  const value = header.replace(/^[ \t]+|[ \t]+$/g, '');
  const quoted = value.startsWith('"');
  const key = quoted ? value.slice(1, -1) : value;
  const broken =
    quoted && (value.length < 2 || !value.endsWith('"'))
      ? 'A quoted idempotency key must end with a closing double quote.'
      : key.length === 0
        ? 'The idempotency key is empty.'
        : key.length > MAX_IDEMPOTENCY_KEY_LENGTH
          ? `The idempotency key is longer than ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`
          : KEY_CHARS.test(key)
            ? undefined
            : 'The idempotency key contains a character outside printable ASCII, a space, a control character or an inner double quote.';
  return broken === undefined ? { ok: true, key } : invalid('invalid-idempotency-key', broken);
}

function invalid(type: 'missing-idempotency-key' | 'invalid-idempotency-key', detail: string): IdempotencyKeyResult {
  return { ok: false, reply: problem(type, `${detail} ${RULE}`) };
}
