/**
 * The submit pipeline: durable first, then deliver. The request is stored in Blobs before the
 * CRM is called; each Idempotency-Key leads to one stored request, at most one successful CRM
 * delivery and at most one confirmation email; and the stored request records what is still
 * owed (delivery, email), so a retry after any failure or crash completes exactly that.
 */
import type { SubmitRequest } from '../fields.ts';
import { json, problem, type Reply } from '../http.ts';
import { DEFAULT_CRM_TIMEOUT_MS, deliverWithin } from './crm/adapter.ts';
import type { SubmitDeps } from './deps.ts';
import { requestFingerprint } from './fingerprint.ts';
import { claimKey, keyEntryKey, LeaseLostError, type KeyLease, type StoredReply } from './key-entry.ts';
import { logEvent } from './log.ts';
import { KEY_IN_USE_DETAIL, KEY_REUSED_DETAIL } from './messages.ts';
import { buildRecord, type ProposalRecord } from './record.ts';
import { RecordStore } from './record-store.ts';
import { pendingReplyBody, receivedReplyBody } from './reply-bodies.ts';

/** How long a request waits for another one with the same key before answering 409. */
const IN_USE_WAIT_MS = 5_000;
const IN_USE_POLL_MS = 100;
/** Retry hint of a 202 when the CRM named none. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;
/** After this many transient failures the confirmation email counts as failed. */
const MAX_EMAIL_ATTEMPTS = 5;

export async function submitProposal(request: SubmitRequest, idempotencyKey: string, deps: SubmitDeps): Promise<Reply> {
  const now = deps.now ?? (() => new Date());
  const fingerprint = requestFingerprint(request);
  const entryKey = keyEntryKey(idempotencyKey);
  const waitUntil = Date.now() + IN_USE_WAIT_MS;

  let tryCreate = true;
  for (;;) {
    const claim = await claimKey(deps.store, entryKey, fingerprint, now, tryCreate);
    // A busy entry exists: further polls only read it. A lost race starts over with a create.
    tryCreate = claim.kind === 'lost';
    if (claim.kind === 'owner') {
      const done = await runClaimed(request, idempotencyKey, deps, claim.lease, claim.fresh);
      if (done) return done;
      // The lease was taken over while we worked: whoever holds it now answers; wait for it.
    } else if (claim.kind === 'replay') {
      return replay(claim.reply);
    } else if (claim.kind === 'reused') {
      return problem('idempotency-key-reused', KEY_REUSED_DETAIL);
    }
    if (Date.now() >= waitUntil) {
      return problem('idempotency-key-in-use', KEY_IN_USE_DETAIL, { headers: { 'Retry-After': '2' } });
    }
    // Busy: the first request usually finishes within moments, and replaying its answer
    // saves the client a round trip. Lost: another writer moved first; read again at once.
    if (claim.kind !== 'lost') await sleep(IN_USE_POLL_MS);
  }
}

/** Does the owed work under the lease; null when the lease was lost on the way. */
async function runClaimed(
  request: SubmitRequest,
  idempotencyKey: string,
  deps: SubmitDeps,
  lease: KeyLease,
  fresh: boolean,
): Promise<Reply | null> {
  try {
    const { reply, final } = await completeOwedWork(request, idempotencyKey, deps, lease, fresh);
    await lease.release(final ? { state: 'final', reply: toStored(reply) } : { state: 'pending' });
    return reply;
  } catch (error) {
    if (error instanceof LeaseLostError) {
      logEvent('idempotency_lease_lost', { request_id: lease.entry.request_id });
      return null;
    }
    // Free the key now so a retry need not wait for the lease to go stale.
    await lease.release({ state: 'pending' }).catch(() => undefined);
    throw error;
  }
}

/**
 * Stores the request if it is new, then does what its record says is still owed, in order:
 * the CRM delivery, then the confirmation email. `final` when nothing is owed any more.
 */
async function completeOwedWork(
  request: SubmitRequest,
  idempotencyKey: string,
  deps: SubmitDeps,
  lease: KeyLease,
  fresh: boolean,
): Promise<{ reply: Reply; final: boolean }> {
  const now = deps.now ?? (() => new Date());
  const records = new RecordStore(deps.store, lease);
  const { entry } = lease;
  // A fresh key entry has no record yet: skip the read.
  let record = fresh ? null : await records.load(entry.request_id);
  if (record === null) {
    const built = buildRecord(request, {
      requestId: entry.request_id,
      receivedAt: entry.received_at,
      crm: deps.crm.name,
      consent: deps.consent,
    });
    // The inbox: the one write that stores the record also delivers it.
    record = await records.create(deps.crm.storesRecord ? delivered(built, deps, now) : built);
  }

  if (record.delivery.state === 'pending') {
    lease.assertHeld();
    const outcome = await deliverWithin(deps.crm, record, idempotencyKey, deps.crmTimeoutMs ?? DEFAULT_CRM_TIMEOUT_MS);
    if (!outcome.ok) {
      const attempts = record.delivery.attempts + 1;
      record = await records.update({
        ...record,
        delivery: { ...record.delivery, crm: deps.crm.name, attempts, last_error_kind: outcome.kind },
      });
      logEvent('crm_delivery_pending', {
        request_id: record.request_id,
        crm: deps.crm.name,
        kind: outcome.kind,
        attempts,
      });
      const retryAfter = outcome.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
      return { reply: pendingReply(record, retryAfter), final: false };
    }
    // Durable before the email: a retry sees "received" and never delivers again.
    record = await records.update(delivered(record, deps, now, outcome.reference));
  }

  if (record.confirmation_email.state === 'not_sent') record = await sendOwedEmail(record, records, deps, lease, now);
  return { reply: receivedReply(record, deps), final: record.confirmation_email.state !== 'not_sent' };
}

/** Sends the confirmation email the record owes and records the outcome. */
async function sendOwedEmail(
  record: ProposalRecord,
  records: RecordStore,
  deps: SubmitDeps,
  lease: KeyLease,
  now: () => Date,
): Promise<ProposalRecord> {
  const at = now().toISOString();
  if (!deps.mailer) return records.update({ ...record, confirmation_email: { state: 'not_configured', at } });
  lease.assertHeld();
  const result = await deps.mailer.sendConfirmation(record, deps.partner).catch(() => 'retry' as const);
  const attempts = (record.confirmation_email.attempts ?? 0) + 1;
  const state = result === 'retry' ? (attempts >= MAX_EMAIL_ATTEMPTS ? 'failed' : 'not_sent') : result;
  return records.update({ ...record, confirmation_email: { state, at, attempts } });
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
