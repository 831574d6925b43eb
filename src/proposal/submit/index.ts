/**
 * The submit pipeline: each Idempotency-Key names one request (its pointer), stored before the CRM is
 * called; whoever holds the request's lease does what it owes, and everyone else answers from the record.
 */
import type { SubmitRequest } from '../../contract/requests.ts';
import { problem, type Reply } from '../../contract/http.ts';
import type { SubmitDeps } from './config.ts';
import { requestFingerprint } from './fingerprint.ts';
import { requestForKey, type KeyPointer } from '../store/key-pointer.ts';

type NamedRequest = { pointer: KeyPointer; key: string };
import { StoreUnavailable } from '../store/blobs.ts';
import { leaseLeftMs, readVersioned, RecordLease } from '../store/record-lease.ts';
import { markOpen } from '../store/open-index.ts';
import { initialNotification } from './notification.ts';
import { backoffAhead, completeOwedWork, delivered, leaseTerms, owes, replyFor } from './owed-work.ts';
import { logEvent } from './log.ts';
import { buildRecord } from './record.ts';
import { consentLinks } from './consent-links.ts';
import { withAddressCount } from './send-gates.ts';
import { observedSignals } from './spam-signals.ts';
import type { RequestSource } from '../../contract/source.ts';
import type { ConsentEvidence } from '../../contract/consent.ts';
import { invocationAgentIdentity } from '../agent-identity/invocation.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../../contract/idempotency-rules.ts';

const IN_USE_POLL_MS = 100;

/** `source` is recorded with a new request; a retry from another channel continues the stored one. */
export async function submitProposal(
  request: SubmitRequest,
  idempotencyKey: string,
  deps: SubmitDeps,
  source?: RequestSource,
  evidence?: ConsentEvidence,
): Promise<Reply> {
  const waitUntil = Date.now() + deps.inUseWaitMs;
  try {
    const named = await requestForKey(deps.store, idempotencyKey, requestFingerprint(request), deps.now);
    if (named.kind === 'reused') {
      return problem(
        'idempotency-key-reused',
        'This idempotency key was already used with a different request. Send a new key for a new submission.',
      );
    }
    for (;;) {
      const found = await readVersioned(deps.store, named.pointer.request_id);
      let lease: RecordLease | null = null;
      let leftMs = 0;
      if (found === null) {
        lease = await store(request, named, deps, source, evidence);
      } else if (!owes(found.record)) {
        // The stored answer, marked as a replay (IETF Idempotency-Key draft).
        const { status, headers = {}, body } = replyFor(found.record, deps);
        return { status, headers: { ...headers, 'Idempotent-Replayed': 'true' }, body };
      } else if (backoffAhead(found.record, deps.now())) {
        // A retry before the CRM's next attempt is due answers from the record; the sweep tries then.
        return replyFor(found.record, deps);
      } else {
        leftMs = leaseLeftMs(found.record, deps.now());
        if (leftMs === 0) lease = await RecordLease.take(leaseTerms(deps), found.record, { ifVersion: found.version });
      }
      // The owner answers with what the store confirmed; if it stopped, a retry or the sweep continues.
      if (lease !== null) return (await completeOwedWork(deps, lease, false)).reply;
      if (Date.now() >= waitUntil) {
        return problem(
          'idempotency-key-in-use',
          'Another request with this idempotency key is still being processed. Retry with the same key and request after retry_after_seconds.',
          { retry_after_seconds: Math.max(1, Math.ceil(leftMs / 1000)) },
        );
      }
      // Someone holds the lease (or moved first): it usually finishes in moments; its answer saves a round trip.
      await new Promise((resolve) => setTimeout(resolve, IN_USE_POLL_MS));
    }
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    // Nothing is known to be stored: nothing was sent to the CRM, nothing was mailed.
    logEvent('store_unavailable', { operation: error.operation, reason: error.reason });
    return problem(
      'store-unavailable',
      'The request could not be stored: the store did not answer. Nothing was sent or emailed. Retry with the same idempotency key and request after retry_after_seconds; the retry never creates a second request.',
      { retry_after_seconds: STORE_RETRY_AFTER_SECONDS },
    );
  }
}

/** Stores the request the pointer names, its lease held: null when another invocation stored it first. */
async function store(
  request: SubmitRequest,
  named: NamedRequest,
  deps: SubmitDeps,
  source?: RequestSource,
  evidence?: ConsentEvidence,
) {
  const { request_id: requestId, created_at: receivedAt } = named.pointer;
  const { crm, consent } = deps;
  const notification = initialNotification(deps);
  const signals = observedSignals(request, receivedAt);
  // Verified since the request arrived; waited for only here, where a new request is stored.
  const agentIdentity = await invocationAgentIdentity();
  const meta = {
    requestId,
    receivedAt,
    crm: crm.name,
    consent,
    ...(evidence !== undefined && { evidence }),
    entryKey: named.key,
    notification,
    signals,
    source,
    agentIdentity,
    ...(deps.consentSecret !== undefined && { links: consentLinks(deps.consentSecret, requestId, receivedAt) }),
  };
  const built = await withAddressCount(deps, buildRecord(request, meta));
  // The inbox: the one write that stores the record also delivers it.
  const first = deps.crm.storesRecord ? delivered(built, deps) : built;
  // The open marker first: no stored request the sweep cannot find, whatever fails after.
  if (owes(first)) await markOpen(deps.store, first.request_id);
  return RecordLease.take(leaseTerms(deps), first, { ifNew: true });
}
