/** When the sweep runs and how it retries a request the CRM refused (variables in .env.example). */

export interface RedeliveryPolicy {
  /** At most one sweep per this interval, across all instances (REDELIVERY_INTERVAL_SECONDS). */
  intervalMs: number;
  /** First backoff step after a failed attempt; doubles per attempt (REDELIVERY_BACKOFF_SECONDS). */
  backoffBaseMs: number;
  /** Longest backoff step. */
  backoffCapMs: number;
  /** After this long since receipt a request the CRM still refuses is `failed` (REDELIVERY_MAX_HOURS). */
  maxAgeMs: number;
  /** Requests older than this are deleted by the sweep; undefined keeps them (RETENTION_DAYS). */
  retentionMs?: number;
}

const SECOND = 1000;
const HOUR = 3600 * SECOND;

export const DEFAULT_REDELIVERY_POLICY: RedeliveryPolicy = {
  intervalMs: 60 * SECOND,
  backoffBaseMs: 60 * SECOND,
  backoffCapMs: HOUR,
  maxAgeMs: 72 * HOUR,
};

/** Wait before the next try after `attempts` failures: base·2^(attempts−1), capped, never below the CRM's Retry-After. */
export function backoffMs(policy: RedeliveryPolicy, attempts: number, retryAfterSeconds?: number): number {
  const step = Math.min(
    policy.backoffBaseMs * 2 ** Math.max(0, attempts - 1),
    Math.max(policy.backoffCapMs, policy.backoffBaseMs),
  );
  return Math.max(step, (retryAfterSeconds ?? 0) * SECOND);
}
