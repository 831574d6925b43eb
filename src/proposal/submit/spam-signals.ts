/** What sales may sort a stored request by: spam that passed the honeypot and fill-time checks is kept visible. */
import { GUIDANCE_FIELDS, INTAKE_FIELDS } from '../../contract/fields.ts';
import type { SubmitRequest } from '../../contract/requests.ts';

export interface SpamSignals {
  /** `passed`: the spam trap was empty and the form took a person's time; `not_checked`: an API client. */
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
  const startedAt = request.form_started_at;
  const filledMs = startedAt === undefined ? undefined : Date.parse(receivedAt) - startedAt;
  // The text a sender wrote: every free-text field, the name and the company.
  const written = [...INTAKE_FIELDS, ...GUIDANCE_FIELDS, 'name', 'company', 'role'] as const;
  return {
    form_checks: startedAt === undefined && request.website === undefined ? 'not_checked' : 'passed',
    ...(filledMs !== undefined && filledMs >= 0 && { fill_seconds: Math.round(filledMs / 1000) }),
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
