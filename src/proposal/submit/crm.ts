/** Delivery to the partner's CRM: what it is sent, one HTTP POST with one outcome, and the three adapters. */
import { createRequire } from 'node:module';
import type * as StandardWebhooks from 'standardwebhooks';
import type { CrmName } from '../../contract/submit-replies.ts';
import { FIELD_LABELS, GUIDANCE_FIELDS, INTAKE_FIELDS } from '../../contract/fields.ts';
import { consentText } from '../../contract/consent.ts';
import { sourceText } from '../../contract/source.ts';
import type { CrmSettings } from '../config.ts';
import { logError, logEvent } from '../log.ts';
import { within, TIMED_OUT } from '../store/blobs.ts';
import { agentIdentityText } from '../../contract/web-bot-auth.ts';
import { signalsLine } from '../limits/spam-signals.ts';
import type { Partner } from '../notify/partner.ts';
import { CONTACT, pick, type ProposalRecord } from './record.ts';
import { postForOutcome, type PostOutcome } from '../notify/post.ts';

export type CrmOutcome = PostOutcome;

/** An update about a request the CRM has: its webhook-id suffix and HubSpot's note line. */
export const CRM_EVENTS = {
  'consent-confirmed': 'Update: the person confirmed this request as theirs (consent now first_party, email_link).',
  erased: 'The person said this request was not theirs ("Not me"): delete it.',
} as const;
export type CrmEvent = keyof typeof CRM_EVENTS;

/**
 * What a CRM is sent, field by field: nothing the site keeps for itself (the client network's hash,
 * the claim, the work states, the key's pointer) reaches it until it is named here.
 */
export function crmPayload(r: ProposalRecord) {
  const { consent } = r;
  return {
    request_id: r.request_id,
    received_at: r.received_at,
    contact: pick(r.contact, CONTACT),
    intake: pick(r.intake, INTAKE_FIELDS),
    guidance: pick(r.guidance, GUIDANCE_FIELDS),
    consent: {
      ...pick(consent, ['given', 'text', 'version', 'at', 'digest', 'method', 'vouched_by', 'confirmed_at', 'channel']),
      ...(consent.mcp && { mcp: pick(consent.mcp, ['protocol_version', 'client']) }),
      ...(consent.initially && { initially: pick(consent.initially, ['method', 'vouched_by']) }),
      ...pick(consent, ['sender_version', 'released_unconfirmed']),
    },
    ...(r.source && { source: pick(r.source, ['channel', 'claimed_channel', 'client']) }),
    ...(r.signals && { signals: pick(r.signals, ['form_checks', 'fill_seconds', 'links', 'address_requests_24h']) }),
    ...(r.agent_identity && {
      agent_identity: pick(r.agent_identity, ['outcome', 'operator', 'key_id', 'covered', 'body_covered', 'reason']),
    }),
  };
}
export type CrmPayload = ReturnType<typeof crmPayload>;

export interface CrmAdapter {
  name: CrmName;
  /** The Blobs inbox: storing the record is accepting it. */
  storesRecord?: true;
  /** At least once; `event` updates a request it has. Expected failures are outcomes; a throw is a bug. */
  deliver(payload: CrmPayload, signal: AbortSignal, event?: CrmEvent): Promise<CrmOutcome>;
  /** The erasure's deletion event (no request data); absent where sales delete by hand (HubSpot). */
  deleted?(requestId: string, signal: AbortSignal): Promise<CrmOutcome>;
}

/** One call within `timeoutMs`, even for an adapter that ignores its signal; a late throw is still a bug and is logged. */
export async function crmCall(
  timeoutMs: number,
  call: (signal: AbortSignal) => Promise<CrmOutcome>,
): Promise<CrmOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  const calling = call(signal);
  const outcome = await within(calling, timeoutMs);
  if (outcome !== TIMED_OUT) return outcome;
  // Nobody awaits it any more: a throw after the deadline (other than the abort itself) is logged, not lost.
  calling.catch((error: unknown) => {
    if (!(error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')))
      logError('unexpected_error', error);
  });
  return { ok: false, kind: 'timeout' };
}

/** The adapter the configuration names; a misconfigured one keeps every request pending and logs what to fix. */
export function crmAdapter(settings: CrmSettings, partner: Partner): CrmAdapter {
  if ('misconfigured' in settings) {
    const { variables, reason } = settings.misconfigured;
    const refuse = async (): Promise<CrmOutcome> => {
      logEvent('crm_misconfigured', { crm: settings.provider, variable: variables.join(', '), reason });
      return { ok: false, kind: 'misconfigured' };
    };
    return { name: settings.provider, deliver: refuse };
  }
  if (settings.provider === 'inbox') return { name: 'inbox', storesRecord: true, deliver: async () => ({ ok: true }) };
  if (settings.provider === 'webhook') return webhookAdapter(settings);
  return hubSpotAdapter(settings, partner);
}

/** Standard Webhooks; webhook-id is the request's id (an update's `<id>.<event>`), never the sender's reusable key. */
function webhookAdapter({ url, secret }: { url: string; secret: string }): CrmAdapter {
  // A named require: the packager (nft) traces `require(…)` of a createRequire binding, not an inline call.
  const requirePackage = createRequire(import.meta.url);
  const { Webhook } = requirePackage('standardwebhooks') as typeof StandardWebhooks;
  const signer = new Webhook(secret);
  const post = (id: string, body: string, signal: AbortSignal) => {
    const at = new Date();
    const headers = {
      'content-type': 'application/json; charset=utf-8',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signer.sign(id, at, body),
    };
    return postForOutcome(url, { signal, body, headers });
  };
  return {
    name: 'webhook',
    deliver: (sent, signal, event) =>
      event === undefined
        ? post(sent.request_id, JSON.stringify(sent), signal)
        : post(`${sent.request_id}.${event}`, JSON.stringify({ event, ...sent }), signal),
    deleted: (requestId, signal) =>
      post(`${requestId}.erased`, JSON.stringify({ event: 'erased', request_id: requestId }), signal),
  };
}

/**
 * The Forms API secure submission (consent recorded natively, the contact deduped by email). No idempotency key: a
 * repeat after a fault is a second submission on the same contact with the same "Proposal request <id>" line.
 */
function hubSpotAdapter(
  s: { portalId: string; formGuid: string; accessToken: string; apiBase: string },
  partner: Partner,
): CrmAdapter {
  const url = `${s.apiBase.replace(/\/+$/, '')}/submissions/v3/integration/secure/submit/${s.portalId}/${s.formGuid}`;
  const headers = { 'content-type': 'application/json; charset=utf-8', authorization: `Bearer ${s.accessToken}` };
  return {
    name: 'hubspot',
    deliver: (payload, signal, event) =>
      postForOutcome(url, { signal, headers, body: JSON.stringify(hubSpotSubmission(payload, partner, event)) }),
  };
}

/** From the payload a webhook gets; HubSpot's default contact properties (object 0-1), which the form needs. */
export function hubSpotSubmission(p: CrmPayload, partner: Partner, event?: CrmEvent) {
  const [first = '', ...rest] = (p.contact.name ?? '').trim().split(/\s+/);
  const lines = [
    ...(event === undefined ? [] : [CRM_EVENTS[event]]),
    `Proposal request ${p.request_id}`,
    `Came through: ${sourceText(p.source)}`,
    `Agent identity: ${agentIdentityText(p.agent_identity)}`,
    `Consent: ${consentText(p.consent)}`,
    '',
    overviewText(p),
    '',
    signalsLine(p.signals),
  ];
  const values: Array<[string, string | undefined]> = [
    ['email', p.contact.email],
    ['firstname', first],
    ['lastname', rest.join(' ')],
    ['company', p.contact.company],
    ['jobtitle', p.contact.role],
    ['phone', p.contact.phone],
    ['message', lines.join('\n')],
  ];
  return {
    submittedAt: String(Date.parse(p.received_at)),
    fields: values.flatMap(([name, value]) => (value ? [{ objectTypeId: '0-1' as const, name, value }] : [])),
    context: { pageUri: partner.proposalUrl, pageName: `${partner.name} proposal request` },
    legalConsentOptions: {
      consent: { consentToProcess: true as const, text: p.consent.text ?? '', communications: [] as [] },
    },
  };
}

/** The request as labelled lines; a multi-line value indented under its label. */
function overviewText(p: CrmPayload): string {
  const values: Partial<Record<keyof typeof FIELD_LABELS, string>> = { ...p.contact, ...p.intake, ...p.guidance };
  return [...CONTACT, ...INTAKE_FIELDS, ...GUIDANCE_FIELDS]
    .flatMap((f) => {
      const value = values[f];
      if (value === undefined) return [];
      const parts = value.split(/\r\n|\r|\n/);
      return parts.length === 1 ? [`${FIELD_LABELS[f]}: ${value}`] : [`${FIELD_LABELS[f]}:\n  ${parts.join('\n  ')}`];
    })
    .join('\n');
}
