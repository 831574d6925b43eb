/** What sales may sort a stored request by: spam that passed the honeypot and fill-time checks stays visible. */
import { GUIDANCE_FIELDS, INTAKE_FIELDS } from '../../contract/fields.ts';
import type { SubmitRequest } from '../../contract/requests.ts';
import { IDEMPOTENCY_RETENTION_HOURS } from '../../contract/idempotency-rules.ts';

/** The workspace keeps its draft's key this long: a start before that, or after arrival, is no fill time a person spent. */
export const FORM_LIFETIME_MS = IDEMPOTENCY_RETENTION_HOURS * 3_600_000;

/** Milliseconds from showing the form to `at`, when the form says so believably. */
export function fillTimeMs(startedAt: number | undefined, at: number): number | undefined {
  const filled = startedAt === undefined ? -1 : at - startedAt;
  return filled >= 0 && filled <= FORM_LIFETIME_MS ? filled : undefined;
}

export interface SpamSignals {
  /** `passed`: the form said believably when it was shown; `not_checked`: an API client, or no believable fill time. */
  form_checks: 'passed' | 'not_checked';
  fill_seconds?: number;
  /** Links (http://, https://, www.) in the text, name and company included. */
  links: number;
  /** Requests from this address (case and +tag ignored) in 24 hours up to this one. */
  address_requests_24h?: number;
}

const LINK = /\bhttps?:\/\/|\bwww\.[^\s.]/gi;

export function observedSignals(request: SubmitRequest, receivedAt: string): SpamSignals {
  const filledMs = fillTimeMs(request.form_started_at, Date.parse(receivedAt));
  const written = [...INTAKE_FIELDS, ...GUIDANCE_FIELDS, 'name', 'company', 'role'] as const;
  return {
    form_checks: filledMs === undefined ? 'not_checked' : 'passed',
    ...(filledMs !== undefined && { fill_seconds: Math.round(filledMs / 1000) }),
    links: written.reduce((sum, field) => sum + (request[field]?.match(LINK)?.length ?? 0), 0),
  };
}

/** One line for sales and the CRM note, e.g. "2 links in the text; request 5 from this address in 24 h". */
export function signalsLine(signals: Partial<SpamSignals> | undefined): string {
  if (signals?.links === undefined) return 'Spam signals: not recorded';
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
