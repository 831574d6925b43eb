/** The stored proposal request: written before any delivery, so nothing is lost when the CRM or mail is down. */
import type { GuidanceFields, IntakeFields, SubmitRequest } from '../../contract/requests.ts';
import { GUIDANCE_FIELDS, INTAKE_FIELDS } from '../../contract/fields.ts';
import type { SpamSignals } from './spam-signals.ts';
import type { RequestSource } from '../../contract/source.ts';
import type { AgentIdentity } from '../agent-identity/model.ts';
import type { ConsentLinks } from './consent-links.ts';
import type { ConfirmationEmailState, CrmName } from '../../contract/submit-replies.ts';
import { assertedConsent, consentDigest, type ConsentEvidence, type ConsentShown } from '../../contract/consent.ts';
import { readVersioned, type BlobKind, type Lease } from '../store/record-lease.ts';
import { isObject, type ProposalsStore } from '../store/blobs.ts';
import { recordKey } from '../store/retention.ts';

export { isObject, PROPOSALS_STORE } from '../store/blobs.ts';
export { recordKey, RECORDS_PREFIX } from '../store/retention.ts';
export type { Lease } from '../store/record-lease.ts';

export type CrmFailureKind = 'rate-limited' | 'server-error' | 'timeout' | 'unreachable' | 'rejected' | 'misconfigured';
/** `failed`: the CRM did not accept it within REDELIVERY_MAX_HOURS; kept, and sales alerted to follow up by hand. */
export type DeliveryState = 'pending' | 'received' | 'failed';

/** One channel of a sales message. `owed`: the owner sends it when due; `in_digest`: the hour's digest counts it. */
export type NotifyState = 'owed' | 'sent' | 'failed' | 'not_configured' | 'in_digest';

/** When an owed step is tried again (backoff); every step gives up by age, never by a count. */
export interface Attempts {
  attempts?: number;
  next_attempt_at?: string;
}

/** A message to the partner's sales team, per channel; sent once, whatever retries follow. */
export interface NotificationStatus extends Attempts {
  email: NotifyState;
  chat: NotifyState;
  attempts: number;
  at?: string;
  /** When an alert became owed: it gives up by its own age. */
  since?: string;
}

export interface ProposalRecord {
  request_id: string;
  /** ISO time of the first receipt; stays the same across retries. */
  received_at: string;
  contact: { name: string; email: string; company: string; role?: string };
  intake: IntakeFields;
  guidance: GuidanceFields;
  consent: ConsentRecord;
  delivery: {
    crm: CrmName;
    state: DeliveryState;
    attempts: number;
    last_error_kind?: CrmFailureKind;
    delivered_at?: string;
    crm_reference?: string;
    /** Earliest time the sweep tries the CRM again (exponential backoff). */
    next_attempt_at?: string;
    failed_at?: string;
  };
  confirmation_email: Attempts & {
    state: ConfirmationEmailState;
    at?: string;
    /** Which send limit held it back (state `limited`). */
    limit?: 'per_address' | 'per_client' | 'per_domain' | 'per_day';
  };
  /** What sales may sort by (spam-signals.ts); absent on requests stored before signals. */
  signals?: SpamSignals;
  /** Blob key of the Idempotency-Key's pointer to this request (retention and erasure delete it with it). */
  idempotency_entry?: string;
  /** Who does the owed work until when (store/record-lease.ts); absent on requests stored before leases. */
  lease?: Lease;
  /** The sales team's notice of the new request (absent on requests stored before notices). */
  notification?: NotificationStatus;
  /** The sales team's alert once a step gave up (the CRM delivery, an email), so a person follows up. */
  alert?: NotificationStatus;
  /** The channel and client the request came through (absent on requests stored before it was recorded). */
  source?: RequestSource;
  /** The confirmation email's two links, as hashes (consent-links.ts); absent without CONSENT_SECRET. */
  consent_links?: ConsentLinks;
  /**
   * CONSENT_CONFIRMATION=required: not delivered, nor told to sales, until the person confirms through
   * the email's link; erased by the sweep once `until` (the key's 24 hours) passed (`expired`).
   */
  hold?: { until: string; expired?: true };
  /** The CRM is owed an update of this request once the person confirmed: `event` is its webhook-id. */
  consent_update?: CrmEvent;
  /** What the request's Web Bot Auth signature proved (agent-identity/): a record, never a gate; absent on requests stored before it. */
  agent_identity?: AgentIdentity;
}

/**
 * That consent was given, to which text (its version and digest), how and who vouches for it
 * (contract/consent.ts). `method`, `vouched_by`, `digest` and `channel` are absent on requests stored
 * before they were recorded, and shown as "not recorded".
 */
export interface ConsentRecord extends ConsentShown {
  given: true;
  /** The consent text and version in force when the request was received. */
  text: string;
  version: string;
  /** When it was given: the request's receipt. */
  at: string;
  /** The version the sender's form showed, when it named one different from `version`. */
  sender_version?: string;
  /** The door it came through (the same as `source.channel`). */
  channel?: RequestSource['channel'];
  /** How it was first given, once a confirmation (`confirmed_at`) upgraded `method` and `vouched_by`. */
  initially?: Pick<ConsentEvidence, 'method' | 'vouched_by'>;
}

/** One event the CRM is owed about a request it has (a confirmation, an erasure), sent once. */
export interface CrmEvent extends Attempts {
  /** `<request_id>.consent-confirmed`, `<request_id>.erased`: stable per event, the webhook-id. */
  event: string;
  state: 'owed' | 'sent' | 'failed';
  since: string;
}

/** Stored requests, `requests/<id>`. */
export const REQUESTS: BlobKind<ProposalRecord> = { key: recordKey, is: isProposalRecord };

/** A stored request read without a lease (the inbox), or null; UnreadableRecord when it cannot be read. */
export async function readRecord(store: ProposalsStore, requestId: string): Promise<ProposalRecord | null> {
  return (await readVersioned(store, REQUESTS, requestId))?.record ?? null;
}

/** Fields mapped one by one, never spread, so the honeypot, form timing and anything added later stay out. */
export function buildRecord(
  request: SubmitRequest,
  meta: {
    requestId: string;
    receivedAt: string;
    crm: CrmName;
    consent: { text: string; version: string };
    /** How it was given; without it, what the source's door implies (assertedConsent). */
    evidence?: ConsentEvidence;
    entryKey?: string;
    notification?: NotificationStatus;
    signals?: SpamSignals;
    source?: RequestSource | undefined;
    agentIdentity?: AgentIdentity | undefined;
    links?: ConsentLinks | undefined;
    hold?: { until: string } | undefined;
  },
): ProposalRecord {
  const picked = <F extends keyof SubmitRequest>(fields: readonly F[]) =>
    Object.fromEntries(fields.flatMap((f) => (request[f] === undefined ? [] : [[f, request[f]]])));
  return {
    request_id: meta.requestId,
    received_at: meta.receivedAt,
    contact: {
      name: request.name,
      email: request.email,
      company: request.company,
      ...(request.role !== undefined && { role: request.role }),
    },
    intake: picked(INTAKE_FIELDS),
    guidance: picked(GUIDANCE_FIELDS),
    consent: consentRecord(request, meta),
    delivery: { crm: meta.crm, state: 'pending', attempts: 0 },
    confirmation_email: { state: 'not_sent' },
    ...(meta.entryKey !== undefined && { idempotency_entry: meta.entryKey }),
    ...(meta.notification !== undefined && { notification: meta.notification }),
    ...(meta.signals !== undefined && { signals: meta.signals }),
    ...(meta.source !== undefined && { source: meta.source }),
    ...(meta.agentIdentity !== undefined && { agent_identity: meta.agentIdentity }),
    ...(meta.links !== undefined && { consent_links: meta.links }),
    ...(meta.hold !== undefined && { hold: meta.hold }),
  };
}

function consentRecord(request: SubmitRequest, meta: Parameters<typeof buildRecord>[1]): ConsentRecord {
  const { consent, source } = meta;
  const evidence = meta.evidence ?? assertedConsent(source?.channel ?? 'http-api', source?.claimed_channel);
  return {
    given: true,
    text: consent.text,
    version: consent.version,
    digest: consentDigest(consent.text),
    at: meta.receivedAt,
    method: evidence.method,
    vouched_by: evidence.vouched_by,
    ...(evidence.method === 'email_link' || evidence.method === 'url_page' ? { confirmed_at: meta.receivedAt } : {}),
    ...(source !== undefined && { channel: source.channel }),
    ...(evidence.mcp !== undefined && { mcp: evidence.mcp }),
    ...(request.consent_version !== undefined &&
      request.consent_version !== consent.version && { sender_version: request.consent_version }),
  };
}

/** Shape check for values read back from Blobs (typed `any` by the client). */
export function isProposalRecord(value: unknown): value is ProposalRecord {
  if (!isObject(value)) return false;
  const { contact, delivery, consent, confirmation_email: email } = value;
  return (
    typeof value['request_id'] === 'string' &&
    typeof value['received_at'] === 'string' &&
    isObject(contact) &&
    typeof contact['email'] === 'string' &&
    isObject(value['intake']) &&
    isObject(value['guidance']) &&
    isObject(consent) &&
    consent['given'] === true &&
    isObject(delivery) &&
    (delivery['state'] === 'pending' || delivery['state'] === 'received' || delivery['state'] === 'failed') &&
    typeof delivery['attempts'] === 'number' &&
    isObject(email) &&
    typeof email['state'] === 'string'
  );
}
