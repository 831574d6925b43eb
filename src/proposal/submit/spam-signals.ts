/** What sales may sort a stored request by: spam that passed the honeypot and fill-time checks is kept visible. */
import { GUIDANCE_FIELDS, INTAKE_FIELDS } from '../../contract/fields.ts';
import type { SubmitRequest } from '../../contract/requests.ts';
import { IDEMPOTENCY_RETENTION_HOURS } from '../../contract/idempotency-rules.ts';

/**
 * How long a form's fill time can be: the workspace's draft keeps its Idempotency-Key, which the
 * store keeps this long. A start beyond it, or after the request arrived, is no fill time a person
 * spent: a sender wrote it, so it counts as missing.
 */
export const FORM_LIFETIME_MS = IDEMPOTENCY_RETENTION_HOURS * 3_600_000;

/** Milliseconds from showing the form to `at`, when the form says so believably; else undefined. */
export function fillTimeMs(startedAt: number | undefined, at: number): number | undefined {
  if (startedAt === undefined) return undefined;
  const filled = at - startedAt;
  return filled >= 0 && filled <= FORM_LIFETIME_MS ? filled : undefined;
}

export interface SpamSignals {
  /** `passed`: the form said believably when it was shown (fillTimeMs); `not_checked`: an API client, or a fill time out of range. */
  form_checks: 'passed' | 'not_checked';
  /** Seconds from showing the form to sending it (workspace only). */
  fill_seconds?: number;
  /** Links (http://, https://, www.) in the text fields, name and company included. */
  links: number;
  /** Requests from this address (case and +tag ignored) in 24 hours up to this one; absent if uncounted. */
  address_requests_24h?: number;
}

const LINK = /\bhttps?:\/\/|\bwww\.[^\s.]/gi;

/** The signals a request carries by itself; the address count comes from the store. */
export function observedSignals(request: SubmitRequest, receivedAt: string): SpamSignals {
  const filledMs = fillTimeMs(request.form_started_at, Date.parse(receivedAt));
  // The text a sender wrote: every free-text field, the name and the company.
  const written = [...INTAKE_FIELDS, ...GUIDANCE_FIELDS, 'name', 'company', 'role'] as const;
  return {
    // The trap alone proves nothing (any client can send it empty): the checks ran when the fill time is believable.
    form_checks: filledMs === undefined ? 'not_checked' : 'passed',
    ...(filledMs !== undefined && { fill_seconds: Math.round(filledMs / 1000) }),
    links: written.reduce((sum, field) => sum + (request[field]?.match(LINK)?.length ?? 0), 0),
  };
}

/** Worth a look: links in the text, or more requests from one address than it gets emails. */
export function isSuspect(signals: SpamSignals | undefined, perAddressLimit: number): boolean {
  return (
    signals !== undefined &&
    (signals.links > 0 ||
      (signals.address_requests_24h !== undefined && signals.address_requests_24h > perAddressLimit))
  );
}

/** One line for the sales notice and the CRM note, e.g. "2 links; 5th request from this address in 24 h". */
export function signalsLine(signals: SpamSignals | undefined): string {
  if (signals === undefined) return 'Spam signals: not recorded';
  const parts = [
    signals.links === 0 ? 'no links' : `${signals.links} link${signals.links === 1 ? '' : 's'} in the text`,
    signals.address_requests_24h === undefined
      ? 'requests from this address not counted'
      : `request ${signals.address_requests_24h} from this address in 24 h`,
    signals.form_checks === 'passed'
      ? `form checks passed${signals.fill_seconds === undefined ? '' : ` (filled in ${signals.fill_seconds} s)`}`
      : 'no form checks (API client)',
  ];
  return `Spam signals: ${parts.join('; ')}`;
}
