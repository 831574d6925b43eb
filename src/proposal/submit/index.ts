/**
 * The submit pipeline: durable first, then deliver. The request is stored in Blobs before the
 * CRM is called, each Idempotency-Key leads to at most one stored request and at most one
 * successful CRM delivery, and the final answer is replayed for 24 hours.
 */
import type { SubmitRequest } from '../fields.ts';
import { json, problem, type Reply } from '../http.ts';
import { DEFAULT_CRM_TIMEOUT_MS, deliverWithin } from './crm/adapter.ts';
import type { SubmitDeps } from './deps.ts';
import { requestFingerprint } from './fingerprint.ts';
import { claimKey, keyEntryKey, settleKey, type KeyEntry, type StoredReply } from './key-entry.ts';
import { withKeyMutex } from './key-mutex.ts';
import { logEvent } from './log.ts';
import { KEY_IN_USE_DETAIL, KEY_REUSED_DETAIL } from './messages.ts';
import { buildRecord, isProposalRecord, recordKey, type ProposalRecord } from './record.ts';
import { pendingReplyBody, receivedReplyBody } from './reply-bodies.ts';

export type { ConsentText, EnvReader, Partner, SubmitDeps } from './deps.ts';
export type { CrmAdapter, CrmOutcome } from './crm/adapter.ts';
export type { Mailer } from './mailer.ts';
export type { ProposalRecord } from './record.ts';
export { parseIdempotencyKey } from './idempotency-key.ts';

/** How long a request waits for another one with the same key before answering 409. */
const IN_USE_WAIT_MS = 2_000;
const IN_USE_POLL_MS = 100;
/** Retry hint of a 202 when the CRM named none. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

export async function submitProposal(request: SubmitRequest, idempotencyKey: string, deps: SubmitDeps): Promise<Reply> {
  const now = deps.now ?? (() => new Date());
  const fingerprint = requestFingerprint(request);
  const entryKey = keyEntryKey(idempotencyKey);
  const waitUntil = Date.now() + IN_USE_WAIT_MS;

  for (;;) {
    const claim = await withKeyMutex(entryKey, () => claimKey(deps.store, entryKey, fingerprint, now()));
    if (claim.kind === 'owner') return runClaimed(request, idempotencyKey, deps, entryKey, claim);
    if (claim.kind === 'replay') return replay(claim.reply);
    if (claim.kind === 'reused') return problem('idempotency-key-reused', KEY_REUSED_DETAIL);
    if (Date.now() >= waitUntil) {
      return problem('idempotency-key-in-use', KEY_IN_USE_DETAIL, { headers: { 'Retry-After': '2' } });
    }
    // Busy: the first request usually finishes within moments, and replaying its answer
    // saves the client a round trip. Lost: another writer moved first; read again at once.
    if (claim.kind === 'busy') await sleep(IN_USE_POLL_MS);
  }
}

async function runClaimed(
  request: SubmitRequest,
  idempotencyKey: string,
  deps: SubmitDeps,
  entryKey: string,
  owned: { entry: KeyEntry; etag: string | undefined },
): Promise<Reply> {
  try {
    const { reply, final } = await storeThenDeliver(request, idempotencyKey, deps, owned.entry);
    const outcome = final ? { state: 'final' as const, reply: toStored(reply) } : { state: 'pending' as const };
    await withKeyMutex(entryKey, () => settleKey(deps.store, entryKey, owned, outcome));
    return reply;
  } catch (error) {
    // Best effort: free the key now so a retry need not wait for the lock to go stale.
    await withKeyMutex(entryKey, () => settleKey(deps.store, entryKey, owned, { state: 'pending' })).catch(() => undefined);
    throw error;
  }
}

async function storeThenDeliver(
  request: SubmitRequest,
  idempotencyKey: string,
  deps: SubmitDeps,
  entry: KeyEntry,
): Promise<{ reply: Reply; final: boolean }> {
  const now = deps.now ?? (() => new Date());
  const key = recordKey(entry.request_id);
  let record = await loadRecord(deps, key);
  if (record === null) {
    record = buildRecord(request, {
      requestId: entry.request_id,
      receivedAt: entry.received_at,
      crm: deps.crm.name,
      consent: deps.consent,
    });
    await deps.store.setJSON(key, record);
  }
  // A retry after a delivery that succeeded (but whose answer was not stored) must not deliver
  // or email again.
  if (record.delivery.state === 'received') return { reply: receivedReply(record, deps), final: true };

  const outcome = await deliverWithin(deps.crm, record, idempotencyKey, deps.crmTimeoutMs ?? DEFAULT_CRM_TIMEOUT_MS);
  const attempts = record.delivery.attempts + 1;
  if (!outcome.ok) {
    record = { ...record, delivery: { ...record.delivery, crm: deps.crm.name, attempts, last_error_kind: outcome.kind } };
    await deps.store.setJSON(key, record);
    logEvent('crm_delivery_pending', { request_id: record.request_id, crm: deps.crm.name, kind: outcome.kind, attempts });
    const retryAfter = outcome.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    return { reply: pendingReply(record, retryAfter), final: false };
  }

  record = {
    ...record,
    delivery: {
      ...record.delivery,
      crm: deps.crm.name,
      state: 'received',
      attempts,
      delivered_at: now().toISOString(),
      ...(outcome.reference !== undefined && { crm_reference: outcome.reference }),
    },
  };
  // Durable before the email: whatever happens next, a retry sees "received".
  await deps.store.setJSON(key, record);
  const email = deps.mailer
    ? await deps.mailer.sendConfirmation(record, deps.partner).catch(() => 'failed' as const)
    : 'not_configured';
  record = { ...record, confirmation_email: { state: email, at: now().toISOString() } };
  await deps.store.setJSON(key, record);
  return { reply: receivedReply(record, deps), final: true };
}

async function loadRecord(deps: SubmitDeps, key: string): Promise<ProposalRecord | null> {
  const data: unknown = await deps.store.get(key, { type: 'json' });
  return isProposalRecord(data) ? data : null;
}

function receivedReply(record: ProposalRecord, deps: SubmitDeps): Reply {
  return json(
    201,
    receivedReplyBody({
      requestId: record.request_id,
      receivedAt: record.received_at,
      crm: record.delivery.crm,
      confirmationEmail: record.confirmation_email.state,
      partnerName: deps.partner.name,
    }),
  );
}

function pendingReply(record: ProposalRecord, retryAfterSeconds: number): Reply {
  return json(
    202,
    pendingReplyBody({ requestId: record.request_id, receivedAt: record.received_at, retryAfterSeconds }),
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

function toStored(reply: Reply): StoredReply {
  return { status: reply.status, headers: reply.headers ?? {}, body: reply.body };
}

/** The stored answer, exactly, marked as a replay (IETF Idempotency-Key draft). */
function replay(stored: StoredReply): Reply {
  return { status: stored.status, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' }, body: stored.body };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
