/** HTTP delivery shared by the webhook and HubSpot adapters and the chat notice: one POST, one outcome. */
import type { CrmOutcome } from './adapter.ts';

/** Longest Retry-After we pass on; a CRM asking for more is treated as "try in an hour". */
const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * POSTs and maps the answer: 2xx received; 429 and 5xx retryable; other 4xx `rejected` (still
 * kept pending, since the consented data must not be dropped); network errors by cause.
 */
export async function postForOutcome(
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal },
): Promise<CrmOutcome> {
  let response: Response;
  try {
    // No redirects: a 3xx must not carry a bearer token or the payload anywhere else.
    response = await fetch(url, { method: 'POST', redirect: 'manual', ...init });
  } catch {
    return { ok: false, kind: init.signal.aborted ? 'timeout' : 'unreachable' };
  }
  // The body is not needed; release the connection.
  await response.body?.cancel().catch(() => undefined);
  if (response.ok) return { ok: true };
  if (response.status === 429) {
    const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
    return { ok: false, kind: 'rate-limited', ...(retryAfterSeconds !== undefined && { retryAfterSeconds }) };
  }
  if (response.status === 408) return { ok: false, kind: 'timeout' };
  if (response.status >= 500) return { ok: false, kind: 'server-error' };
  return { ok: false, kind: 'rejected' };
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 10.2.3), clamped to 1 s .. 1 h. */
export function parseRetryAfter(value: string | null, now: Date = new Date()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  let seconds: number;
  if (/^\d+$/.test(trimmed)) seconds = Number(trimmed);
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    seconds = Math.ceil((at - now.getTime()) / 1000);
  }
  return Math.min(Math.max(seconds, 1), MAX_RETRY_AFTER_SECONDS);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** An endpoint must be https:, except plain http on loopback for local runs and tests. */
export function isAllowedEndpoint(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}
