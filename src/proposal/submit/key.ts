/** The Idempotency-Key (IETF draft: a Structured Field string or a bare token) and the fingerprint of what it names. */
import { hash } from 'node:crypto';
import { problem, type Reply } from '../../contract/http.ts';
import { KEY_CHAR_CLASS, MAX_IDEMPOTENCY_KEY_LENGTH } from '../../contract/idempotency-rules.ts';
import type { SubmitRequest } from '../../contract/requests.ts';

const KEY_CHARS = new RegExp(`^${KEY_CHAR_CLASS}+$`);
const RULE = `An idempotency key is 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces, either bare or inside one pair of double quotes.`;

/** The key, or the problem naming the rule it breaks (never echoing it). */
export function parseIdempotencyKey(header: string | null): { ok: true; key: string } | { ok: false; reply: Reply } {
  const invalid = (type: 'missing-idempotency-key' | 'invalid-idempotency-key', detail: string) => ({
    ok: false as const,
    reply: problem(type, `${detail} ${RULE}`),
  });
  if (header === null)
    return invalid('missing-idempotency-key', 'A submit needs an idempotency key: one stable value per submission.');
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

/** JSON with object keys sorted at every depth: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** "The same payload" for a key: what the sender chose to send, not the session (the honeypot, the form's start time). */
export function requestFingerprint(request: SubmitRequest): string {
  const { website: _honeypot, form_started_at: _started, ...meaningful } = request;
  return hash('sha256', canonicalJson(meaningful));
}
