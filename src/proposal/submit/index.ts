/**
 * The submit pipeline: each Idempotency-Key leads to one request, stored before the CRM is called, and
 * at most one delivery, confirmation and notice; a retry or the sweep completes what it owes after a crash.
 */
import type { SubmitRequest } from '../../contract/requests.ts';
import { problem, type Reply } from '../../contract/http.ts';
import type { SubmitDeps } from './config.ts';
import { requestFingerprint } from './fingerprint.ts';
import { claimKey, keyEntryKey } from '../store/key-entry.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { initialNotification } from './notification.ts';
import { completeOwedWork } from './owed-work.ts';
import { logEvent } from './log.ts';
import { buildRecord } from './record.ts';
import { observedSignals } from './spam-signals.ts';
import type { RequestSource } from '../source.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../../contract/idempotency-rules.ts';

const IN_USE_POLL_MS = 100;

/** `source` is recorded with a new request; a retry from another channel continues the stored one. */
export async function submitProposal(
  request: SubmitRequest,
  idempotencyKey: string,
  deps: SubmitDeps,
  source?: RequestSource,
): Promise<Reply> {
  const fingerprint = requestFingerprint(request);
  const entryKey = keyEntryKey(idempotencyKey);
  const waitUntil = Date.now() + deps.inUseWaitMs;

  let tryCreate = true;
  try {
    for (;;) {
      const claim = await claimKey(deps.store, entryKey, fingerprint, deps.now, tryCreate);
      // A busy entry exists: further polls only read it. A lost race starts over with a create.
      tryCreate = claim.kind === 'lost';
      if (claim.kind === 'owner') {
        const { lease } = claim;
        const { entry } = lease;
        const build = () =>
          buildRecord(request, {
            requestId: entry.request_id,
            receivedAt: entry.received_at,
            crm: deps.crm.name,
            consent: deps.consent,
            entryKey: lease.entryKey,
            deliveryId: idempotencyKey,
            notification: initialNotification(deps),
            signals: observedSignals(request, entry.received_at),
            source,
          });
        const done = await completeOwedWork(deps, lease, { fresh: claim.fresh, build });
        if (done) return done.reply;
        // The lease was taken over while we worked: whoever holds it now answers; wait for it.
      } else if (claim.kind === 'replay') {
        // The stored answer, exactly, marked as a replay (IETF Idempotency-Key draft).
        const { status, headers, body } = claim.reply;
        return { status, headers: { ...headers, 'Idempotent-Replayed': 'true' }, body };
      } else if (claim.kind === 'reused') {
        return problem(
          'idempotency-key-reused',
          'This Idempotency-Key was already used with a different request body. Send a new key for a new submission.',
        );
      }
      if (Date.now() >= waitUntil) {
        return problem(
          'idempotency-key-in-use',
          'Another request with this Idempotency-Key is still being processed. Retry with the same key and body after Retry-After seconds.',
          { headers: { 'Retry-After': '2' } },
        );
      }
      // Busy: the first request usually finishes in moments; replaying it saves a round trip. Lost: read again now.
      if (claim.kind !== 'lost') await new Promise((resolve) => setTimeout(resolve, IN_USE_POLL_MS));
    }
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    // Nothing is known to be stored: nothing was sent to the CRM, nothing was mailed.
    logEvent('store_unavailable', { operation: error.operation, reason: error.reason });
    return problem(
      'store-unavailable',
      'The request could not be stored: the store did not answer. Nothing was sent or emailed. Retry with the same Idempotency-Key and body after Retry-After seconds; the retry never creates a second request.',
      { headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) } },
    );
  }
}
