/**
 * When the sweep runs and how it retries a request the CRM did not accept: at most once per
 * interval across all instances, exponential backoff per request, and after a maximum age the
 * request is marked `failed` and the sales team alerted. Variables are documented in .env.example.
 */
import type { EnvReader } from './env.ts';
import { logEvent } from './log.ts';
import { RETENTION_DAYS_RANGE } from '../../contract/data-handling.ts';

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
const DAY = 24 * HOUR;

export const DEFAULT_REDELIVERY_POLICY: RedeliveryPolicy = {
  intervalMs: 60 * SECOND,
  backoffBaseMs: 60 * SECOND,
  backoffCapMs: HOUR,
  maxAgeMs: 72 * HOUR,
};

export function redeliveryPolicyFromEnv(readEnv: EnvReader): RedeliveryPolicy {
  const number = (name: string, unit: number, min: number, max: number, fallback: number | undefined) => {
    const raw = readEnv(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      logEvent('config_invalid', { variable: name, reason: `must be a number from ${min} to ${max}` });
      return fallback;
    }
    return value * unit;
  };
  const d = DEFAULT_REDELIVERY_POLICY;
  const retentionMs = number('RETENTION_DAYS', DAY, RETENTION_DAYS_RANGE.min, RETENTION_DAYS_RANGE.max, undefined);
  return {
    intervalMs: number('REDELIVERY_INTERVAL_SECONDS', SECOND, 0.1, 86_400, d.intervalMs) ?? d.intervalMs,
    backoffBaseMs: number('REDELIVERY_BACKOFF_SECONDS', SECOND, 0.1, 3_600, d.backoffBaseMs) ?? d.backoffBaseMs,
    backoffCapMs: d.backoffCapMs,
    maxAgeMs: number('REDELIVERY_MAX_HOURS', HOUR, 0.0001, 8_760, d.maxAgeMs) ?? d.maxAgeMs,
    ...(retentionMs !== undefined && { retentionMs }),
  };
}

/** Wait before the next try after `attempts` failures: base·2^(attempts−1), capped, never below the CRM's Retry-After. */
export function backoffMs(policy: RedeliveryPolicy, attempts: number, retryAfterSeconds?: number): number {
  const step = Math.min(
    policy.backoffBaseMs * 2 ** Math.max(0, attempts - 1),
    Math.max(policy.backoffCapMs, policy.backoffBaseMs),
  );
  return Math.max(step, (retryAfterSeconds ?? 0) * SECOND);
}
