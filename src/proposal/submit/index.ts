/**
 * The submit pipeline: durable first, then deliver. The request is stored in Blobs before the
 * CRM is called; each Idempotency-Key leads to one stored request, at most one successful CRM
 * delivery, at most one confirmation email and one notice to the sales team; and the stored
 * request records what is still owed (owed-work.ts), so a retry or the background sweep
 * (sweep.ts) completes exactly that after any failure or crash.
 */
import type { SubmitRequest } from '../../contract/requests.ts';
import { problem, type Reply } from '../../contract/http.ts';
import type { SubmitDeps } from './deps.ts';
import { requestFingerprint } from './fingerprint.ts';
import { claimKey, keyEntryKey, LeaseLostError, type KeyLease, type StoredReply } from '../store/key-entry.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { initialNotification } from './notification.ts';
import { completeOwedWork, settle } from './owed-work.ts';
import { logEvent } from './log.ts';
import { KEY_IN_USE_DETAIL, KEY_REUSED_DETAIL, STORE_UNAVAILABLE_DETAIL } from './messages.ts';
import { buildRecord } from './record.ts';
import { observedSignals } from './spam-signals.ts';
import type { RequestSource } from '../source.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../../contract/idempotency-rules.ts';

/** How long a request waits for another one with the same key before answering 409 (deps.inUseWaitMs). */
export const IN_USE_WAIT_MS = 5_000;
const IN_USE_POLL_MS = 100;

/**
 * `source` is recorded with a new request; a retry from another channel continues the stored one
 * (the fingerprint covers the request, not where it came from).
 */
export async function submitProposal(
  request: SubmitRequest,
  idempotencyKey: string,
  deps: SubmitDeps,
  source?: RequestSource,
): Promise<Reply> {
  try {
    return await submitOnce(request, idempotencyKey, deps, source);
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    // Nothing is known to be stored: nothing was sent to the CRM, nothing was mailed.
    logEvent('store_unavailable', { operation: error.operation, reason: error.reason });
    return problem('store-unavailable', STORE_UNAVAILABLE_DETAIL, {
      headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
    });
  }
}

async function submitOnce(
  request: SubmitRequest,
  idempotencyKey: string,
  deps: SubmitDeps,
  source: RequestSource | undefined,
): Promise<Reply> {
  const now = deps.now ?? (() => new Date());
  const fingerprint = requestFingerprint(request);
  const entryKey = keyEntryKey(idempotencyKey);
  const waitUntil = Date.now() + (deps.inUseWaitMs ?? IN_USE_WAIT_MS);

  let tryCreate = true;
  for (;;) {
    const claim = await claimKey(deps.store, entryKey, fingerprint, now, tryCreate);
    // A busy entry exists: further polls only read it. A lost race starts over with a create.
    tryCreate = claim.kind === 'lost';
    if (claim.kind === 'owner') {
      const done = await runClaimed(request, idempotencyKey, deps, claim.lease, claim.fresh, source);
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
  source: RequestSource | undefined,
): Promise<Reply | null> {
  try {
    const now = deps.now ?? (() => new Date());
    const { entry } = lease;
    const build = () =>
      buildRecord(request, {
        requestId: entry.request_id,
        receivedAt: entry.received_at,
        crm: deps.crm.name,
        consent: deps.consent,
        entryKey: lease.entryKey,
        deliveryId: idempotencyKey,
        notification: initialNotification(deps.notify ?? { emailTo: [] }, deps.mailer),
        signals: observedSignals(request, entry.received_at),
        source,
      });
    const result = await completeOwedWork({ ...deps, now }, lease, { fresh, build });
    await settle(deps.store, lease, result);
    return result.reply;
  } catch (error) {
    if (error instanceof LeaseLostError) {
      logEvent('idempotency_lease_lost', { request_id: lease.entry.request_id });
      return null;
    }
    if (error instanceof StoreUnavailable) {
      // The store is failing: another write now would only add its own bound to the reply. The
      // lease goes stale after LEASE_STALE_MS and a retry (or the sweep) takes it over.
      lease.abandon();
      throw error;
    }
    // Free the key now so a retry need not wait for the lease to go stale.
    await lease.release({ state: 'pending' }).catch(() => undefined);
    throw error;
  }
}

/** The stored answer, exactly, marked as a replay (IETF Idempotency-Key draft). */
function replay(stored: StoredReply): Reply {
  return { status: stored.status, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' }, body: stored.body };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
