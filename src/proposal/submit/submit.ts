/**
 * A submit: its key names one request, stored before anything is sent; its owner does what it owes and
 * everyone else answers from the record. The reply waits for what it reports (the CRM, the confirmation
 * email); the rest follows it (`later`), and the scheduled run finishes what an owner could not.
 */
import { CONSENT_LINK_HOURS, type ConsentEvidence } from '../../contract/consent.ts';
import { json, problem, type Reply } from '../../contract/http.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../../contract/idempotency-rules.ts';
import type { SubmitRequest } from '../../contract/requests.ts';
import type { RequestSource } from '../../contract/source.ts';
import * as replies from '../../contract/submit-replies.ts';
import { logEvent } from '../log.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { requestForKey, type KeyPointer } from '../store/keys.ts';
import { addressPlace } from '../limits/send-gates.ts';
import { observedSignals } from '../limits/spam-signals.ts';
import { consentLinks } from '../notify/links.ts';
import type { AgentIdentity } from '../../contract/web-bot-auth.ts';
import type { Ctx } from '../work/context.ts';
import { claimFree, Owner } from '../work/engine.ts';
import { owedChannels } from '../work/context.ts';
import { delivered, REPLY_STEPS, REQUEST_STEPS, REQUESTS } from '../work/request-steps.ts';
import { requestFingerprint } from './key.ts';
import { buildRecord, recordKey, type ProposalRecord } from './record.ts';

/** How long a submit waits for another with its key before 409, and how often it looks. */
const IN_USE = { waitMs: 5_000, pollMs: 100 };

export interface SubmitMeta {
  source?: RequestSource | undefined;
  evidence?: ConsentEvidence | undefined;
  /** The request's Web Bot Auth identity: verified only here, where a new request is stored. */
  identity: () => Promise<AgentIdentity | undefined>;
  /** Work after the reply (waitUntil); absent, the call waits for it. */
  later?: ((work: Promise<unknown>) => void) | undefined;
  inUseWaitMs?: number;
}

export async function submitProposal(ctx: Ctx, request: SubmitRequest, key: string, meta: SubmitMeta): Promise<Reply> {
  const giveUpAt = ctx.mono() + (meta.inUseWaitMs ?? IN_USE.waitMs);
  let requestId: string | undefined;
  try {
    const named = await requestForKey(ctx.store, key, requestFingerprint(request), ctx.now);
    if (named === 'reused')
      return problem(
        'idempotency-key-reused',
        'This idempotency key was already used with a different request. Send a new key for a new submission.',
      );
    requestId = named.pointer.request_id;
    for (;;) {
      const found = await ctx.store.read(recordKey(requestId));
      let owner: Owner<ProposalRecord, Ctx> | null = null;
      if (found === null) owner = await Owner.create(REQUESTS, await newRecord(ctx, request, named, meta), ctx);
      else if (!REQUESTS.is(found.value)) {
        logEvent('record_unreadable', { kind: 'requests', id: requestId });
        throw new StoreUnavailable('read', 'malformed');
      } else {
        const record = found.value;
        const owed = REQUEST_STEPS.slice(0, REPLY_STEPS).filter((s) => s.owed(record, ctx) !== false);
        // The stored answer, marked as a replay (IETF Idempotency-Key draft): what follows it is the owner's or the schedule's.
        if (owed.length === 0) {
          const stored = replyFor(record, ctx);
          return { ...stored, headers: { ...stored.headers, 'Idempotent-Replayed': 'true' } };
        }
        if (!owed.some((s) => (record.work?.[s.name]?.next_at ?? '') <= ctx.now().toISOString()))
          return replyFor(record, ctx);
        owner = await Owner.take(REQUESTS, { record, version: found.version }, ctx);
        if (owner === null && !claimFree(record, ctx.now()) && ctx.mono() >= giveUpAt) {
          const left = Math.max(1, Math.ceil((Date.parse(record.claim!.until) - ctx.now().getTime()) / 1000));
          return problem(
            'idempotency-key-in-use',
            'Another request with this idempotency key is still being processed. Retry with the same key and request after retry_after_seconds.',
            { retry_after_seconds: left, request_id: requestId },
          );
        }
      }
      if (owner !== null) return await complete(ctx, owner, meta.later);
      // Someone else holds it (or moved first): it usually finishes in moments, and its answer saves a round trip.
      await new Promise((resolve) => setTimeout(resolve, IN_USE.pollMs));
    }
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    logEvent('store_unavailable', { request_id: requestId, operation: error.operation, reason: error.reason });
    return problem(
      'store-unavailable',
      'The request could not be completed: the store did not answer. Retry with the same idempotency key and request after retry_after_seconds; the retry never creates a second request.',
      { retry_after_seconds: STORE_RETRY_AFTER_SECONDS, ...(requestId !== undefined && { request_id: requestId }) },
    );
  }
}

/** The reply is what the store confirmed once the reply's steps are done; the rest goes on `later`, or before this returns. */
async function complete(ctx: Ctx, owner: Owner<ProposalRecord, Ctx>, later: SubmitMeta['later']): Promise<Reply> {
  let reached: (r: ProposalRecord) => void = () => undefined;
  const checkpoint = new Promise<ProposalRecord>((resolve) => (reached = resolve));
  const work = owner.run({ replyAfter: REPLY_STEPS, reached }).then((result) => result.record ?? owner.record);
  if (later === undefined) await work;
  else later(work);
  return replyFor(await Promise.race([checkpoint, work]), ctx);
}

async function newRecord(
  ctx: Ctx,
  request: SubmitRequest,
  named: { pointer: KeyPointer; key: string },
  meta: SubmitMeta,
) {
  const { request_id: requestId, created_at: receivedAt } = named.pointer;
  const { secret, strict } = ctx.config.consent;
  const hold = strict && meta.evidence?.vouched_by !== 'first_party';
  const record = buildRecord(request, {
    requestId,
    receivedAt,
    crm: ctx.crm.name,
    consent: ctx.consentText,
    evidence: meta.evidence,
    entryKey: named.key,
    notification: owedChannels(ctx),
    signals: observedSignals(request, receivedAt),
    source: meta.source,
    agentIdentity: await meta.identity(),
    links: secret === undefined ? undefined : consentLinks(secret, requestId, receivedAt),
    hold: hold
      ? { until: new Date(Date.parse(receivedAt) + CONSENT_LINK_HOURS.confirm * 3_600_000).toISOString() }
      : undefined,
  });
  // Counted before storing, so the CRM and the notice show it; if the store cannot count now, the email's gate does.
  try {
    const place = await addressPlace(ctx, record);
    record.signals = { ...record.signals!, address_requests_24h: place };
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    logEvent('address_count_failed', { request_id: requestId, reason: error.reason });
  }
  // The inbox: the one write that stores the record also delivers it.
  return ctx.crm.storesRecord && !hold ? delivered(record, ctx.now().toISOString()) : record;
}

/** What the record says, never more; a pending one names when the CRM is tried again. */
function replyFor(r: ProposalRecord, ctx: Ctx): Reply {
  const base = { requestId: r.request_id, receivedAt: r.received_at, confirmationEmail: r.confirmation_email.state };
  if (r.hold !== undefined) return json(202, replies.awaitingReplyBody(base));
  if (r.delivery.state === 'failed') return json(202, replies.failedReplyBody(base));
  if (r.delivery.state === 'received') {
    const confirmLink = r.consent_links !== undefined && r.consent.vouched_by !== 'first_party';
    return json(201, replies.receivedReplyBody({ ...base, crm: r.delivery.crm, partner: ctx.partner, confirmLink }));
  }
  const next = Date.parse(r.work?.['crm']?.next_at ?? '');
  const retryAfterSeconds = Number.isNaN(next) ? 30 : Math.max(1, Math.ceil((next - ctx.now().getTime()) / 1000));
  return json(202, replies.pendingReplyBody({ ...base, retryAfterSeconds }), {
    'Retry-After': String(retryAfterSeconds),
  });
}
