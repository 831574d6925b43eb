/**
 * What the intake stores, for how long, and how to have it erased: one text for the contract,
 * /agents, /proposal and their markdown twins. RETENTION_DAYS is read here for the function's
 * sweep and for the build alike, so the pages say what the sweep does.
 */
import { IDEMPOTENCY_RETENTION_HOURS } from './idempotency-rules.ts';

export interface DataHandling {
  stored: string;
  /** Days a stored request is kept; null: until its deletion is asked for. */
  retention_days: number | null;
  retention: string;
  erasure: string;
}

export const RETENTION_DAYS_RANGE = { min: 1, max: 36_500 } as const;

/** RETENTION_DAYS as a number of days; undefined when unset, empty or out of range. */
export function retentionDays(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const days = Number(raw);
  return Number.isFinite(days) && days >= RETENTION_DAYS_RANGE.min && days <= RETENTION_DAYS_RANGE.max
    ? days
    : undefined;
}

export function dataHandling(partner: { name: string; email: string }, days: number | undefined): DataHandling {
  const { name, email } = partner;
  return {
    stored:
      `Guide and summarize store nothing. A submitted request (the contact details, the intake fields, the consent ` +
      `text and version agreed to, and when it arrived) is stored by ${name}, delivered to its customer-relationship ` +
      `system, and ${name}'s sales team is told of it.`,
    retention_days: days ?? null,
    retention:
      (days === undefined
        ? 'A stored request is kept until its deletion is asked for.'
        : `A stored request is deleted ${days} days after it arrived.`) +
      ` Idempotency keys are deleted after ${IDEMPOTENCY_RETENTION_HOURS} hours.`,
    erasure: `To have a request deleted, write to ${email} with its request_id or the email address it was sent with; everything stored for it is deleted.`,
  };
}

/** The texts for the environment the site is built in (its RETENTION_DAYS). */
export function dataHandlingFromEnv(
  partner: { name: string; email: string },
  env: Record<string, string | undefined> = process.env,
): DataHandling {
  return dataHandling(partner, retentionDays(env['RETENTION_DAYS']));
}
