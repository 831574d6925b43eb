/** The stored proposal request, `requests/<id>`: written before anything is sent, so nothing is lost when the CRM or mail is down. */
import type { GuidanceFields, IntakeFields, SubmitRequest } from '../../contract/requests.ts';
import { CONTACT_FIELDS, GUIDANCE_FIELDS, INTAKE_FIELDS, OPTIONAL_CONTACT_FIELDS } from '../../contract/fields.ts';
import type { RequestSource } from '../../contract/source.ts';
import type { ConfirmationEmailState, CrmName } from '../../contract/submit-replies.ts';
import { assertedConsent, consentDigest, type ConsentEvidence, type ConsentShown } from '../../contract/consent.ts';
import { isObject } from '../store/blobs.ts';
import type { Owned } from '../work/engine.ts';
import type { SpamSignals } from '../limits/spam-signals.ts';
import type { AgentIdentity } from '../../contract/web-bot-auth.ts';
import type { ConsentLinks } from '../notify/links.ts';

export const REQUESTS_PREFIX = 'requests';
export const recordKey = (requestId: string) => `${REQUESTS_PREFIX}/${requestId}`;
export const CONTACT = [...CONTACT_FIELDS, ...OPTIONAL_CONTACT_FIELDS] as const;

export type CrmFailureKind = 'rate-limited' | 'server-error' | 'timeout' | 'unreachable' | 'rejected' | 'misconfigured';
/** One channel of a sales message: `owed` until sent; `in_digest` when the hour's digest counts it instead. */
export type NotifyState = 'owed' | 'sent' | 'failed' | 'not_configured' | 'in_digest';
export type Channels = { email: NotifyState; chat: NotifyState };

export interface ProposalRecord extends Owned {
  request_id: string;
  /** The first receipt; the same across retries. */
  received_at: string;
  contact: { name: string; email: string; company: string; role?: string; phone?: string };
  intake: IntakeFields;
  guidance: GuidanceFields;
  consent: ConsentRecord;
  /** `failed`: the CRM did not accept it within REDELIVERY_MAX_HOURS; kept, and sales alerted. */
  delivery: {
    crm: CrmName;
    state: 'pending' | 'received' | 'failed';
    last_error_kind?: CrmFailureKind;
    delivered_at?: string;
    crm_reference?: string;
    failed_at?: string;
  };
  confirmation_email: {
    state: ConfirmationEmailState;
    at?: string;
    limit?: 'per_address' | 'per_client' | 'per_domain' | 'per_day';
  };
  notification: Channels;
  /** Sales' alert once a step gave up, so a person follows up: `reason` names the step. */
  alert?: Channels & { reason: string };
  /** The CRM's update once the person confirmed: sent under `<request_id>.consent-confirmed`. */
  consent_update?: { state: 'owed' | 'sent' | 'failed' };
  /** The confirmation email's two links, as hashes. */
  consent_links?: ConsentLinks;
  /** Strict consent: not delivered nor told to sales until the person confirms; erased unconfirmed at `until`. */
  hold?: { until: string };
  signals?: SpamSignals;
  /** The Idempotency-Key's pointer (deleted with the request). */
  idempotency_entry: string;
  source?: RequestSource;
  /** What the request's Web Bot Auth signature proved: a record, never a gate. */
  agent_identity?: AgentIdentity;
}

export interface ConsentRecord extends ConsentShown {
  given: true;
  text: string;
  version: string;
  at: string;
  /** The version the sender's form showed, when it named another. */
  sender_version?: string;
  channel?: RequestSource['channel'];
  /** How it was first given, once a confirmation upgraded it. */
  initially?: Pick<ConsentEvidence, 'method' | 'vouched_by'>;
  /** Why a request strict mode held was delivered unconfirmed: its confirmation email could not be sent. */
  released_unconfirmed?: ConfirmationEmailState | 'limit';
}

export interface RecordMeta {
  requestId: string;
  receivedAt: string;
  crm: CrmName;
  consent: { text: string; version: string };
  /** How it was given; without it, what the door implies (assertedConsent). */
  evidence?: ConsentEvidence | undefined;
  entryKey: string;
  notification: Channels;
  signals?: SpamSignals;
  source?: RequestSource | undefined;
  agentIdentity?: AgentIdentity | undefined;
  links?: ConsentLinks | undefined;
  hold?: { until: string } | undefined;
}

/** The `keys` of `value` that are set, named one by one: never a spread. */
export const pick = <T extends object, K extends keyof T>(value: T, keys: readonly K[]) =>
  Object.fromEntries(keys.flatMap((k) => (value[k] === undefined ? [] : [[k, value[k]]]))) as Pick<T, K>;

/** Fields picked, so the honeypot, the fill time and anything added later stay out. */
export function buildRecord(request: SubmitRequest, meta: RecordMeta): ProposalRecord {
  const evidence = meta.evidence ?? assertedConsent(meta.source?.channel ?? 'http-api', meta.source?.claimed_channel);
  const { consent, source } = meta;
  return {
    request_id: meta.requestId,
    received_at: meta.receivedAt,
    contact: pick(request, CONTACT),
    intake: pick(request, INTAKE_FIELDS),
    guidance: pick(request, GUIDANCE_FIELDS),
    consent: {
      given: true,
      text: consent.text,
      version: consent.version,
      digest: consentDigest(consent.text),
      at: meta.receivedAt,
      ...pick(evidence, ['method', 'vouched_by', 'confirmed_at']),
      ...(source !== undefined && { channel: source.channel }),
      ...(evidence.mcp !== undefined && { mcp: evidence.mcp }),
      ...(request.consent_version !== undefined &&
        request.consent_version !== consent.version && { sender_version: request.consent_version }),
    },
    delivery: { crm: meta.crm, state: 'pending' },
    confirmation_email: { state: 'not_sent' },
    notification: meta.notification,
    idempotency_entry: meta.entryKey,
    ...(meta.signals !== undefined && { signals: meta.signals }),
    ...(source !== undefined && { source }),
    ...(meta.agentIdentity !== undefined && { agent_identity: meta.agentIdentity }),
    ...(meta.links !== undefined && { consent_links: meta.links }),
    ...(meta.hold !== undefined && { hold: meta.hold }),
  };
}

/** Shape check for values read back from Blobs (typed `any` by the client). */
export function isProposalRecord(value: unknown): value is ProposalRecord {
  if (!isObject(value)) return false;
  const { contact, delivery, consent, confirmation_email: email } = value;
  return (
    ['request_id', 'received_at'].every((f) => typeof value[f] === 'string') &&
    ['intake', 'guidance', 'notification'].every((f) => isObject(value[f])) &&
    isObject(contact) &&
    typeof contact['email'] === 'string' &&
    isObject(consent) &&
    consent['given'] === true &&
    isObject(delivery) &&
    ['pending', 'received', 'failed'].includes(delivery['state'] as string) &&
    isObject(email) &&
    typeof email['state'] === 'string'
  );
}
