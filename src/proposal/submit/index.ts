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

  let tryCreate = true;
  for (;;) {
    const claim = await withKeyMutex(entryKey, () => claimKey(deps.store, entryKey, fingerprint, now(), tryCreate));
    // A busy entry exists: further polls only read it. A lost race starts over with a create.
    tryCreate = claim.kind === 'lost';
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
  owned: { entry: KeyEntry; etag: string | undefined; fresh: boolean },
): Promise<Reply> {
  try {
    const { reply, final } = await storeThenDeliver(request, idempotencyKey, deps, owned.entry, owned.fresh);
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
  fresh: boolean,
): Promise<{ reply: Reply; final: boolean }> {
  const now = deps.now ?? (() => new Date());
  const key = recordKey(entry.request_id);
  // A fresh key entry has no record yet: skip the read.
  const existing = fresh ? null : await loadRecord(deps, key);
  let record =
    existing ??
    buildRecord(request, { requestId: entry.request_id, receivedAt: entry.received_at, crm: deps.crm.name, consent: deps.consent });
  // A retry after a delivery that succeeded (but whose answer was not stored) must not deliver
  // or email again.
  if (record.delivery.state === 'received') return { reply: receivedReply(record, deps), final: true };

  // The inbox: the one write that stores the record also delivers it.
  if (deps.crm.storesRecord) return confirm(delivered(record, deps, now), key, deps, now);

  // Durable first: the record is stored before anything leaves the function.
  if (!existing) await deps.store.setJSON(key, record);
  const outcome = await deliverWithin(deps.crm, record, idempotencyKey, deps.crmTimeoutMs ?? DEFAULT_CRM_TIMEOUT_MS);
  if (!outcome.ok) {
    const attempts = record.delivery.attempts + 1;
    record = { ...record, delivery: { ...record.delivery, crm: deps.crm.name, attempts, last_error_kind: outcome.kind } };
    await deps.store.setJSON(key, record);
    logEvent('crm_delivery_pending', { request_id: record.request_id, crm: deps.crm.name, kind: outcome.kind, attempts });
    const retryAfter = outcome.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    return { reply: pendingReply(record, retryAfter), final: false };
  }
  return confirm(delivered(record, deps, now, outcome.reference), key, deps, now);
}

/** The record as accepted by the CRM. */
function delivered(record: ProposalRecord, deps: SubmitDeps, now: () => Date, reference?: string): ProposalRecord {
  return {
    ...record,
    delivery: {
      ...record.delivery,
      crm: deps.crm.name,
      state: 'received',
      attempts: record.delivery.attempts + 1,
      delivered_at: now().toISOString(),
      ...(reference !== undefined && { crm_reference: reference }),
    },
  };
}

/** Stores the delivered record and sends the confirmation email at most once. */
async function confirm(
  record: ProposalRecord,
  key: string,
  deps: SubmitDeps,
  now: () => Date,
): Promise<{ reply: Reply; final: boolean }> {
  const withEmail = (state: ProposalRecord['confirmation_email']['state']): ProposalRecord => ({
    ...record,
    confirmation_email: { state, at: now().toISOString() },
  });
  if (!deps.mailer) {
    const settled = withEmail('not_configured');
    await deps.store.setJSON(key, settled);
    return { reply: receivedReply(settled, deps), final: true };
  }
  // Durable before the email: whatever happens next, a retry sees "received" and never emails twice.
  await deps.store.setJSON(key, record);
  const email = await deps.mailer.sendConfirmation(record, deps.partner).catch(() => 'failed' as const);
  const settled = withEmail(email);
  await deps.store.setJSON(key, settled);
  return { reply: receivedReply(settled, deps), final: true };
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
      partner: deps.partner,
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
