/** One HTTP POST with one outcome: what a CRM delivery and a chat message share. */
import type { CrmFailureKind } from '../submit/record.ts';

export type PostOutcome =
  { ok: true; reference?: string } | { ok: false; kind: CrmFailureKind; retryAfterSeconds?: number };

/** Retry-After as seconds or an HTTP date (RFC 9110 10.2.3), clamped to 1 s .. 1 h (more is tried in an hour). */
export function parseRetryAfter(value: string | null, now = new Date()): number | undefined {
  const trimmed = value?.trim() ?? '';
  const seconds = /^\d+$/.test(trimmed) ? Number(trimmed) : Math.ceil((Date.parse(trimmed) - now.getTime()) / 1000);
  return Number.isNaN(seconds) ? undefined : Math.min(Math.max(seconds, 1), 3600);
}

/** POSTs without following redirects: 2xx ok; 408, 429 and 5xx retryable; other 4xx `rejected` (kept, never dropped). */
export async function postForOutcome(
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal },
): Promise<PostOutcome> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', redirect: 'manual', ...init });
  } catch (error) {
    if (init.signal.aborted) return { ok: false, kind: 'timeout' };
    // fetch's network error (refused, reset, DNS, TLS); any other TypeError is a bug.
    if (error instanceof TypeError && error.message === 'fetch failed') return { ok: false, kind: 'unreachable' };
    throw error;
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.ok) return { ok: true };
  if (response.status === 429) {
    const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
    return { ok: false, kind: 'rate-limited', ...(retryAfterSeconds !== undefined && { retryAfterSeconds }) };
  }
  if (response.status === 408) return { ok: false, kind: 'timeout' };
  return { ok: false, kind: response.status >= 500 ? 'server-error' : 'rejected' };
}
