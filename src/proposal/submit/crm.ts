/** Delivery to the partner's CRM: what it is sent, the adapter seam, one HTTP POST with one outcome, the two HTTP adapters. */
import { createRequire } from 'node:module';
import type * as StandardWebhooks from 'standardwebhooks';
import type { CrmName } from '../../contract/submit-replies.ts';
import { FIELD_LABELS, GUIDANCE_FIELDS, INTAKE_FIELDS } from '../../contract/fields.ts';
import type { Partner } from './partner.ts';
import { signalsLine, type SpamSignals } from './spam-signals.ts';
import { sourceText, type RequestSource } from '../../contract/source.ts';
import { logError, logEvent } from './log.ts';
import { agentIdentityText } from '../agent-identity/text.ts';
import type { AgentIdentity } from '../agent-identity/model.ts';
import type { ConsentRecord, CrmFailureKind, ProposalRecord } from './record.ts';
import { consentText } from '../../contract/consent.ts';

/** Events about a request the CRM already has: the webhook's `event` and webhook-id suffix, HubSpot's note line. */
export const CRM_EVENT_NOTES = {
  'consent-confirmed': 'Update: the person confirmed this request as theirs (consent now first_party, email_link).',
} as const;
export type CrmEventName = keyof typeof CRM_EVENT_NOTES;

export type CrmOutcome =
  { ok: true; reference?: string } | { ok: false; kind: CrmFailureKind; retryAfterSeconds?: number };

/**
 * What a CRM is sent about a request, each field chosen here: the request as the sender gave it and
 * consented to, its id, the door it came through and its spam signals. Nothing the site keeps for
 * itself (the client network's hash, the lease, delivery and notice states, the key's pointer).
 */
export type CrmPayload = ReturnType<typeof crmPayload>;

/** Field by field, never spread, so a field added to the record reaches no CRM until it is named here. */
export function crmPayload(record: ProposalRecord) {
  const { contact, consent, source, signals, agent_identity: identity } = record;
  return {
    request_id: record.request_id,
    received_at: record.received_at,
    contact: {
      name: contact.name,
      email: contact.email,
      company: contact.company,
      ...(contact.role !== undefined && { role: contact.role }),
    },
    intake: picked(record.intake, INTAKE_FIELDS),
    guidance: picked(record.guidance, GUIDANCE_FIELDS),
    consent: consentFields(consent),
    ...(source !== undefined && { source: sourceFields(source) }),
    ...(signals !== undefined && { signals: signalFields(signals) }),
    ...(identity !== undefined && { agent_identity: agentIdentityFields(identity) }),
  };
}

/** The consent record, each field named; those a request stored before them lacks stay out (the CRM shows "not recorded"). */
function consentFields(consent: ConsentRecord) {
  return {
    given: consent.given,
    text: consent.text,
    version: consent.version,
    at: consent.at,
    ...(consent.digest !== undefined && { digest: consent.digest }),
    ...(consent.method !== undefined && { method: consent.method }),
    ...(consent.vouched_by !== undefined && { vouched_by: consent.vouched_by }),
    ...(consent.confirmed_at !== undefined && { confirmed_at: consent.confirmed_at }),
    ...(consent.channel !== undefined && { channel: consent.channel }),
    ...(consent.mcp !== undefined && {
      mcp: {
        ...(consent.mcp.protocol_version !== undefined && { protocol_version: consent.mcp.protocol_version }),
        ...(consent.mcp.client !== undefined && { client: consent.mcp.client }),
      },
    }),
    ...(consent.initially !== undefined && {
      initially: { method: consent.initially.method, vouched_by: consent.initially.vouched_by },
    }),
    ...(consent.sender_version !== undefined && { sender_version: consent.sender_version }),
  };
}

/** What the request's signature proved (../agent-identity/model.ts): each field named, as everywhere here. */
function agentIdentityFields(identity: AgentIdentity): AgentIdentity {
  return {
    outcome: identity.outcome,
    ...(identity.operator !== undefined && { operator: identity.operator }),
    ...(identity.key_id !== undefined && { key_id: identity.key_id }),
    ...(identity.covered !== undefined && { covered: [...identity.covered] }),
    ...(identity.body_covered !== undefined && { body_covered: identity.body_covered }),
    ...(identity.reason !== undefined && { reason: identity.reason }),
  };
}

/** The named fields that are set, in the contract's order. */
function picked<F extends string>(
  values: Partial<Record<F, string>>,
  fields: readonly F[],
): Partial<Record<F, string>> {
  const set = fields.flatMap((field) => (values[field] === undefined ? [] : [[field, values[field]] as const]));
  return Object.fromEntries(set) as Partial<Record<F, string>>;
}

/** The door and the client's names for itself; the network hash stays with the send limit that reads it. */
function sourceFields(source: RequestSource): Omit<RequestSource, 'network'> {
  return {
    channel: source.channel,
    ...(source.claimed_channel !== undefined && { claimed_channel: source.claimed_channel }),
    ...(source.client !== undefined && { client: source.client }),
  };
}

function signalFields(signals: SpamSignals): SpamSignals {
  return {
    form_checks: signals.form_checks,
    ...(signals.fill_seconds !== undefined && { fill_seconds: signals.fill_seconds }),
    links: signals.links,
    ...(signals.address_requests_24h !== undefined && { address_requests_24h: signals.address_requests_24h }),
  };
}

export interface CrmAdapter {
  name: CrmName;
  /** The stored record is itself the delivery (the Blobs inbox): storing it is accepting it. */
  storesRecord?: boolean;
  /** Set when the configuration cannot deliver: the variables to fix, and why (config.ts). */
  misconfigured?: { variables: string[]; reason: string };
  /**
   * At least once per request (a delivery whose outcome went unrecorded is repeated); the payload's
   * `request_id` lets the CRM keep it once. `signal` aborts when the delivery runs out of time.
   * Expected failures (no answer, refusals, 4xx, 5xx) are outcomes; a throw is a bug.
   */
  deliver(payload: CrmPayload, ctx: { signal: AbortSignal; event?: CrmEventName }): Promise<CrmOutcome>;
  /**
   * An event about a request the CRM may have, with no request data (an erasure), within `timeoutMs`;
   * absent when the CRM takes none (HubSpot: sales delete by hand).
   */
  deliverEvent?(event: { event: 'erased'; request_id: string }, timeoutMs: number): Promise<CrmOutcome>;
}

/** Default bound of one delivery: far below the platform's 60 s limit, leaving time to store and answer. */
export const DEFAULT_CRM_TIMEOUT_MS = 8_000;

/**
 * One delivery of the record's payload with a deadline, even for an adapter that ignores its signal.
 * Only through the CRM the request was accepted for: another one (a changed CRM_PROVIDER, an operator's
 * different configuration) is never sent it, and that is logged. An adapter's throw is a bug and
 * surfaces; one that comes after the deadline, when nobody awaits the delivery, is logged.
 */
export async function deliverWithin(
  adapter: CrmAdapter,
  record: ProposalRecord,
  timeoutMs: number,
  event?: CrmEventName,
): Promise<CrmOutcome> {
  if (record.delivery.crm !== adapter.name) {
    logEvent('crm_not_accepted_here', {
      request_id: record.request_id,
      accepted_for: record.delivery.crm,
      configured: adapter.name,
    });
    return { ok: false, kind: 'misconfigured' };
  }
  const payload = crmPayload(record);
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = new Promise<CrmOutcome>((resolve) =>
    signal.addEventListener('abort', () => resolve({ ok: false, kind: 'timeout' }), { once: true }),
  );
  const delivered = adapter.deliver(payload, { signal, ...(event !== undefined && { event }) });
  delivered.catch((error: unknown) => {
    if (signal.aborted && !isAbort(error)) logError('unexpected_error', error, { request_id: record.request_id });
  });
  return Promise.race([delivered, timedOut]);
}

/** The error fetch throws when its signal aborts (a timeout is one). */
const isAbort = (error: unknown) =>
  error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');

/**
 * fetch's network error (the Fetch standard's "network error": refused, reset, DNS, TLS), which
 * undici throws as `TypeError('fetch failed')` with the cause. Any other TypeError (a bad header, a
 * bad URL) is a bug.
 */
const isNetworkError = (error: unknown) => error instanceof TypeError && error.message === 'fetch failed';

/** Longest Retry-After we pass on; a CRM asking for more is treated as "try in an hour". */
const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * POSTs and maps the answer: 2xx received; 429 and 5xx retryable; other 4xx `rejected` (still
 * kept pending, since the consented data must not be dropped); network errors by cause.
 */
export async function postForOutcome(
  url: string,
  init: { headers: Record<string, string>; body: string; signal: AbortSignal },
): Promise<CrmOutcome> {
  let response: Response;
  try {
    // No redirects: a 3xx must not carry a bearer token or the payload anywhere else.
    response = await fetch(url, { method: 'POST', redirect: 'manual', ...init });
  } catch (error) {
    if (init.signal.aborted && isAbort(error)) return { ok: false, kind: 'timeout' };
    if (isNetworkError(error)) return { ok: false, kind: 'unreachable' };
    throw error;
  }
  // The body is not needed; release the connection.
  await response.body?.cancel().catch(() => undefined);
  if (response.ok) return { ok: true };
  if (response.status === 429) {
    const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
    return { ok: false, kind: 'rate-limited', ...(retryAfterSeconds !== undefined && { retryAfterSeconds }) };
  }
  if (response.status === 408) return { ok: false, kind: 'timeout' };
  if (response.status >= 500) return { ok: false, kind: 'server-error' };
  return { ok: false, kind: 'rejected' };
}

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 10.2.3), clamped to 1 s .. 1 h. */
export function parseRetryAfter(value: string | null, now: Date = new Date()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  let seconds: number;
  if (/^\d+$/.test(trimmed)) seconds = Number(trimmed);
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    seconds = Math.ceil((at - now.getTime()) / 1000);
  }
  return Math.min(Math.max(seconds, 1), MAX_RETRY_AFTER_SECONDS);
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** An endpoint must be https:, except plain http on loopback for local runs and tests. */
export function isAllowedEndpoint(value: string): boolean {
  const url = URL.parse(value);
  if (url === null || url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/**
 * Signed per Standard Webhooks; `secret` is "whsec_<base64>". webhook-id is the request's own id (never
 * the sender's Idempotency-Key, which a sender may reuse after 24 hours for another request), so a
 * receiver that dedupes on it stores each request once, even after a lost 2xx or a repeat.
 */
export function webhookAdapter({ url, secret }: { url: string; secret: string }): CrmAdapter {
  const requirePackage = createRequire(import.meta.url);
  const { Webhook } = requirePackage('standardwebhooks') as typeof StandardWebhooks;
  const signer = new Webhook(secret);
  /** One Standard Webhooks post: `id` is the webhook-id a receiver dedupes on. */
  const post = (id: string, payload: string, signal: AbortSignal) => {
    const sentAt = new Date();
    return postForOutcome(url, {
      signal,
      body: payload,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signer.sign(id, sentAt, payload),
      },
    });
  };
  return {
    name: 'webhook',
    deliverEvent: (sent, timeoutMs) =>
      post(`${sent.request_id}.${sent.event}`, JSON.stringify(sent), AbortSignal.timeout(timeoutMs)),
    // An event about a request the CRM has (its consent confirmed): the same request, and an id of its own.
    deliver: (sent, { signal, event }) =>
      event === undefined
        ? post(sent.request_id, JSON.stringify(sent), signal)
        : post(`${sent.request_id}.${event}`, JSON.stringify({ event, ...sent }), signal),
  };
}

export type HubSpotSubmission = ReturnType<typeof hubSpotSubmission>;

/**
 * The Forms API (secure submission), which records legal consent natively and dedupes the contact by
 * email. It takes no idempotency key: a repeat (only after a fault, docs/operating.md) shows as a
 * second form submission on the same contact with the same "Proposal request <id>" line. The form must have the fields sent (email, firstname, lastname, company, jobtitle, message).
 */
export function hubSpotAdapter(
  settings: { portalId: string; formGuid: string; accessToken: string; apiBase: string },
  partner: Partner,
): CrmAdapter {
  const base = settings.apiBase.replace(/\/+$/, '');
  const url = `${base}/submissions/v3/integration/secure/submit/${settings.portalId}/${settings.formGuid}`;
  return {
    name: 'hubspot',
    deliver: async (payload, { signal, event }) =>
      postForOutcome(url, {
        signal,
        body: JSON.stringify(hubSpotSubmission(payload, partner, event)),
        headers: {
          'content-type': 'application/json; charset=utf-8',
          authorization: `Bearer ${settings.accessToken}`,
        },
      }),
  };
}

/** The submission body, from the same payload a webhook gets; contact properties use HubSpot's default internal names (object 0-1). */
export function hubSpotSubmission(record: CrmPayload, partner: Partner, event?: CrmEventName) {
  const { firstname, lastname } = splitName(record.contact.name);
  const values: Array<[string, string | undefined]> = [
    ['email', record.contact.email],
    ['firstname', firstname],
    ['lastname', lastname],
    ['company', record.contact.company],
    ['jobtitle', record.contact.role],
    [
      'message',
      `${event === undefined ? '' : `${CRM_EVENT_NOTES[event]}\n`}Proposal request ${record.request_id}\nCame through: ${sourceText(record.source)}\nAgent identity: ${agentIdentityText(record.agent_identity)}\nConsent: ${consentText(record.consent)}\n\n${overviewText(record)}\n\n${signalsLine(record.signals)}`,
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
function splitName(name: string): { firstname: string; lastname: string } {
  const [first = '', ...rest] = name.trim().split(/\s+/);
  return { firstname: first, lastname: rest.join(' ') };
}

/** The request as labelled lines; a multi-line value is indented under its label. */
function overviewText(record: CrmPayload): string {
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
