/**
 * The submit pipeline: each idempotency key names one request (its pointer), stored before the CRM is
 * called; whoever holds the request's lease does what it owes (request-work.ts), and everyone else
 * answers from the record. The reply waits for what it reports (the CRM, the confirmation email); the
 * sales notice follows after it (`later`: the invocation's waitUntil).
 */
import type { SubmitRequest } from '../../contract/requests.ts';
import { problem, type Reply } from '../../contract/http.ts';
import type { SubmitDeps } from './config.ts';
import { requestFingerprint } from './fingerprint.ts';
import { requestForKey, type KeyPointer } from '../store/key-pointer.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { leaseLeftMs, readVersioned, RecordLease, UnreadableRecord } from '../store/record-lease.ts';
import { markOpen, markSettled, openMarker } from '../store/open-index.ts';
import { initialNotification } from './notification.ts';
import { completeSteps, leaseTerms, owedSteps } from './owed-work.ts';
import { delivered, owes, replyFor, REPLY_STEPS, REQUEST_STEPS } from './request-work.ts';
import { logEvent } from './log.ts';
import { buildRecord, REQUESTS, type ProposalRecord } from './record.ts';
import { consentLinks } from './consent-links.ts';
import { CONSENT_LINK_HOURS } from '../../contract/consent.ts';

/** A held request waits for the person as long as their "Yes" link works. */
const holdUntil = (receivedAt: string) => ({
  until: new Date(Date.parse(receivedAt) + CONSENT_LINK_HOURS.confirm * 3_600_000).toISOString(),
});
import { withAddressCount } from './send-gates.ts';
import { observedSignals } from './spam-signals.ts';
import type { RequestSource } from '../../contract/source.ts';
import type { ConsentEvidence } from '../../contract/consent.ts';
import { invocationAgentIdentity } from '../agent-identity/invocation.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../../contract/idempotency-rules.ts';

const IN_USE_POLL_MS = 100;

/** Work that goes on after the reply (the platform's waitUntil); absent, the call waits for it. */
export type Later = (work: Promise<unknown>) => void;

/** `source` is recorded with a new request; a retry from another channel continues the stored one. */
export async function submitProposal(
  request: SubmitRequest,
  idempotencyKey: string,
  deps: SubmitDeps,
  source?: RequestSource,
  later?: Later,
  evidence?: ConsentEvidence,
): Promise<Reply> {
  const monotonic = deps.monotonic ?? (() => performance.now());
  const waitUntil = monotonic() + deps.inUseWaitMs;
  let requestId: string | undefined;
  try {
    const named = await requestForKey(deps.store, idempotencyKey, requestFingerprint(request), deps.now);
    if (named.kind === 'reused') {
      return problem(
        'idempotency-key-reused',
        'This idempotency key was already used with a different request. Send a new key for a new submission.',
      );
    }
    requestId = named.pointer.request_id;
    for (;;) {
      const found = await readVersioned(deps.store, REQUESTS, requestId);
      let lease: RecordLease<ProposalRecord> | null = null;
      let leftMs = 0;
      if (found === null) {
        lease = await store(request, named, deps, source, evidence);
      } else if (!owedSteps(REPLY_STEPS, found.record, deps.now()).owes) {
        // The stored answer, marked as a replay (IETF Idempotency-Key draft); what follows the reply is the owner's or the sweep's.
        const { status, headers = {}, body } = replyFor(found.record, deps);
        return { status, headers: { ...headers, 'Idempotent-Replayed': 'true' }, body };
      } else if (!owedSteps(REPLY_STEPS, found.record, deps.now()).due) {
        // Nothing the reply reports is due (the CRM's next attempt is later): the record answers; the sweep goes on.
        return replyFor(found.record, deps);
      } else {
        leftMs = leaseLeftMs(found.record, deps.now());
        if (leftMs === 0) {
          lease = await RecordLease.take(leaseTerms(deps), REQUESTS.key(requestId), found.record, {
            ifVersion: found.version,
          });
        }
      }
      // The owner answers with what the store confirmed; if it stopped, a retry or the sweep continues.
      if (lease !== null) return await complete(deps, lease, later);
      if (monotonic() >= waitUntil) {
        return problem(
          'idempotency-key-in-use',
          'Another request with this idempotency key is still being processed. Retry with the same key and request after retry_after_seconds.',
          { retry_after_seconds: Math.max(1, Math.ceil(leftMs / 1000)), request_id: requestId },
        );
      }
      // Someone holds the lease (or moved first): it usually finishes in moments; its answer saves a round trip.
      await new Promise((resolve) => setTimeout(resolve, IN_USE_POLL_MS));
    }
  } catch (error) {
    if (error instanceof UnreadableRecord) logEvent('record_unreadable', { request_id: requestId, key: error.key });
    else if (error instanceof StoreUnavailable) {
      logEvent('store_unavailable', { request_id: requestId, operation: error.operation, reason: error.reason });
    } else throw error;
    return problem(
      'store-unavailable',
      'The request could not be completed: the store did not answer. Retry with the same idempotency key and request after retry_after_seconds; the retry never creates a second request.',
      {
        retry_after_seconds: STORE_RETRY_AFTER_SECONDS,
        ...(requestId !== undefined && { request_id: requestId }),
      },
    );
  }
}

/**
 * Runs what the leased request owes: the reply is what the store confirmed once the steps it reports
 * are done; the rest goes on after it (`later`) or before it returns. A programming error surfaces.
 */
async function complete(deps: SubmitDeps, lease: RecordLease<ProposalRecord>, later: Later | undefined) {
  const id = lease.record.request_id;
  let reached: (record: ProposalRecord) => void = () => undefined;
  const checkpoint = new Promise<ProposalRecord>((resolve) => (reached = resolve));
  const work = completeSteps(REQUEST_STEPS, lease, deps, {
    ignoreBackoff: false,
    id,
    checkpoint: { after: REPLY_STEPS.length, reached },
  }).then(async (result) => {
    // Nothing owed: the request leaves the index of open work; a failed delete is settled by the next sweep.
    if (result.stopped === undefined && !owes(result.record)) {
      await markSettled(deps.store, openMarker(id)).catch((error: unknown) => {
        if (!(error instanceof StoreUnavailable)) throw error;
      });
    }
    return result.record;
  });
  const record = Promise.race([checkpoint, work]);
  if (later === undefined) await work;
  else later(work);
  return replyFor(await record, deps);
}

/** Stores the request the pointer names, its lease held: null when another invocation stored it first. */
async function store(
  request: SubmitRequest,
  named: { pointer: KeyPointer; key: string },
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
    ...(deps.consentRequired === true && evidence?.vouched_by !== 'first_party' && { hold: holdUntil(receivedAt) }),
  };
  const built = await withAddressCount(deps, buildRecord(request, meta));
  // The inbox: the one write that stores the record also delivers it.
  const first = deps.crm.storesRecord ? delivered(built, deps) : built;
  // The open marker first: no stored request the sweep cannot find, whatever fails after.
  if (owes(first)) await markOpen(deps.store, openMarker(requestId), named.key);
  return RecordLease.take(leaseTerms(deps), REQUESTS.key(requestId), first, { ifNew: true });
}
