/** When an owed step is tried again: exponential backoff, and giving up by age (REDELIVERY_MAX_HOURS), never by a count. */
import type { RedeliveryPolicy, SubmitDeps } from './config.ts';
import type { Attempts } from './record.ts';

/** `not_before`: never sent earlier, whatever the backoff (an hour's digest before the hour is over). */
export type Due = Attempts & { not_before?: string };

/** Its next attempt due at `now` (the backoff ignored: an operator's redeliver). */
export function isDue(status: Due, now: Date, ignoreBackoff = false): boolean {
  if (status.not_before !== undefined && Date.parse(status.not_before) > now.getTime()) return false;
  const next = Date.parse(status.next_attempt_at ?? '');
  return ignoreBackoff || Number.isNaN(next) || next <= now.getTime();
}

/** After a failed attempt: the next one after a backoff, or `gaveUp` once the work is older than REDELIVERY_MAX_HOURS. */
export function nextAttempt(
  status: Attempts,
  since: string,
  deps: Pick<SubmitDeps, 'now' | 'redelivery'>,
  retryAfterSeconds = 0,
): { gaveUp: true; attempts: number } | { gaveUp: false; attempts: number; next_attempt_at: string } {
  const attempts = (status.attempts ?? 0) + 1;
  const at = deps.now().getTime();
  if (at - Date.parse(since) >= deps.redelivery.maxAgeMs) return { gaveUp: true, attempts };
  const wait = backoffMs(deps.redelivery, attempts, retryAfterSeconds);
  return { gaveUp: false, attempts, next_attempt_at: new Date(at + wait).toISOString() };
}

/** base·2^(attempts−1), at most an hour (REDELIVERY_BACKOFF_SECONDS' maximum), never below the other side's Retry-After. */
function backoffMs(policy: RedeliveryPolicy, attempts: number, retryAfterSeconds: number): number {
  return Math.max(Math.min(policy.backoffBaseMs * 2 ** Math.max(0, attempts - 1), 3_600_000), retryAfterSeconds * 1000);
}
