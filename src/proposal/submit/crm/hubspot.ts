/**
 * HubSpot through the Forms API (secure submission), not the CRM objects API: a form
 * submission records the sender's legal consent natively (legalConsentOptions) and HubSpot
 * dedupes the contact by email, so a person who writes twice stays one contact. The form must
 * contain the fields sent below (email, firstname, lastname, company, jobtitle, message).
 */
import { FIELD_LABELS, GUIDANCE_FIELDS, INTAKE_FIELDS } from '../../../contract/fields.ts';
import type { Partner } from '../partner.ts';
import { signalsLine } from '../spam-signals.ts';
import { sourceText } from '../../source.ts';
import type { ProposalRecord } from '../record.ts';
import type { CrmAdapter } from './adapter.ts';
import { postForOutcome } from './http.ts';

export type HubSpotSubmission = ReturnType<typeof hubSpotSubmission>;

export function hubSpotAdapter(
  settings: { portalId: string; formGuid: string; accessToken: string; apiBase: string },
  partner: Partner,
): CrmAdapter {
  const base = settings.apiBase.replace(/\/+$/, '');
  const url = `${base}/submissions/v3/integration/secure/submit/${settings.portalId}/${settings.formGuid}`;
  return {
    name: 'hubspot',
    deliver: async (record, { signal }) =>
      postForOutcome(url, {
        signal,
        body: JSON.stringify(hubSpotSubmission(record, partner)),
        headers: {
          'content-type': 'application/json; charset=utf-8',
          authorization: `Bearer ${settings.accessToken}`,
        },
      }),
  };
}

/** The submission body; contact properties use HubSpot's default internal names (object 0-1). */
export function hubSpotSubmission(record: ProposalRecord, partner: Partner) {
  const { firstname, lastname } = splitName(record.contact.name);
  const values: Array<[string, string | undefined]> = [
    ['email', record.contact.email],
    ['firstname', firstname],
    ['lastname', lastname],
    ['company', record.contact.company],
    ['jobtitle', record.contact.role],
    [
      'message',
      `Proposal request ${record.request_id}\nCame through: ${sourceText(record.source)}\n\n${overviewText(record)}\n\n${signalsLine(record.signals)}`,
    ],
  ];
  return {
    submittedAt: String(Date.parse(record.received_at)),
    fields: values.flatMap(([name, value]) =>
      value === undefined || value === '' ? [] : [{ objectTypeId: '0-1' as const, name, value }],
    ),
    context: { pageUri: partner.proposalUrl, pageName: `${partner.name} proposal request` },
    legalConsentOptions: {
      consent: { consentToProcess: true as const, text: record.consent.text, communications: [] as [] },
    },
  };
}

/** First word as first name, the rest as last name: good enough for a CRM, and reversible by reading both. */
function splitName(name: string): { firstname: string; lastname?: string } {
  const parts = name.trim().split(/\s+/);
  const [first = '', ...rest] = parts;
  return rest.length === 0 ? { firstname: first } : { firstname: first, lastname: rest.join(' ') };
}

/** The request as labelled lines; a multi-line value is indented under its label. */
function overviewText(record: ProposalRecord): string {
  const { name, email, company, role } = record.contact;
  const lines: Array<[string, string | undefined]> = [
    [FIELD_LABELS.name, name],
    [FIELD_LABELS.email, email],
    [FIELD_LABELS.company, company],
    [FIELD_LABELS.role, role],
    ...INTAKE_FIELDS.map((field): [string, string | undefined] => [FIELD_LABELS[field], record.intake[field]]),
    ...GUIDANCE_FIELDS.map((field): [string, string | undefined] => [FIELD_LABELS[field], record.guidance[field]]),
  ];
  return lines
    .flatMap(([label, value]) => {
      if (value === undefined) return [];
      const parts = value.split(/\r\n|\r|\n/);
      return [parts.length === 1 ? `${label}: ${value}` : `${label}:\n${parts.map((line) => `  ${line}`).join('\n')}`];
    })
    .join('\n');
}
