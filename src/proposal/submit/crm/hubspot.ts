/**
 * HubSpot through the Forms API (secure submission), not the CRM objects API: a form
 * submission records the sender's legal consent natively (legalConsentOptions) and HubSpot
 * dedupes the contact by email, so a person who writes twice stays one contact. The form must
 * contain the fields sent below (email, firstname, lastname, company, jobtitle, message).
 */
import type { EnvReader } from '../env.ts';
import type { Partner } from '../partner.ts';
import { overviewText } from '../overview.ts';
import { signalsLine } from '../spam-signals.ts';
import { sourceText } from '../../source.ts';
import type { ProposalRecord } from '../record.ts';
import type { CrmAdapter } from './adapter.ts';
import { isAllowedEndpoint, postForOutcome } from './http.ts';
import { misconfiguredAdapter } from './misconfigured.ts';

export const DEFAULT_HUBSPOT_API_BASE = 'https://api.hsforms.com';

export interface HubSpotSettings {
  portalId: string;
  formGuid: string;
  accessToken: string;
  apiBase: string;
}

export interface HubSpotSubmission {
  submittedAt: string;
  fields: Array<{ objectTypeId: '0-1'; name: string; value: string }>;
  context: { pageUri: string; pageName: string };
  legalConsentOptions: {
    consent: { consentToProcess: true; text: string; communications: [] };
  };
}

export function hubSpotAdapter(settings: HubSpotSettings, partner: Partner): CrmAdapter {
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
export function hubSpotSubmission(record: ProposalRecord, partner: Partner): HubSpotSubmission {
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
      consent: { consentToProcess: true, text: record.consent.text, communications: [] },
    },
  };
}

/** First word as first name, the rest as last name: good enough for a CRM, and reversible by reading both. */
function splitName(name: string): { firstname: string; lastname?: string } {
  const parts = name.trim().split(/\s+/);
  const [first = '', ...rest] = parts;
  return rest.length === 0 ? { firstname: first } : { firstname: first, lastname: rest.join(' ') };
}

export function hubSpotAdapterFromEnv(env: EnvReader, partner: Partner): CrmAdapter {
  const portalId = env('HUBSPOT_PORTAL_ID');
  if (portalId === undefined) return misconfiguredAdapter('hubspot', 'HUBSPOT_PORTAL_ID', 'missing');
  if (!/^\d+$/.test(portalId)) return misconfiguredAdapter('hubspot', 'HUBSPOT_PORTAL_ID', 'must be digits');
  const formGuid = env('HUBSPOT_FORM_GUID');
  if (formGuid === undefined) return misconfiguredAdapter('hubspot', 'HUBSPOT_FORM_GUID', 'missing');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(formGuid)) {
    return misconfiguredAdapter('hubspot', 'HUBSPOT_FORM_GUID', 'must be a form GUID');
  }
  const accessToken = env('HUBSPOT_ACCESS_TOKEN');
  if (accessToken === undefined) return misconfiguredAdapter('hubspot', 'HUBSPOT_ACCESS_TOKEN', 'missing');
  const apiBase = env('HUBSPOT_API_BASE') ?? DEFAULT_HUBSPOT_API_BASE;
  if (!isAllowedEndpoint(apiBase)) {
    return misconfiguredAdapter('hubspot', 'HUBSPOT_API_BASE', 'must be an https: URL (http: only on loopback)');
  }
  return hubSpotAdapter({ portalId, formGuid, accessToken, apiBase }, partner);
}
