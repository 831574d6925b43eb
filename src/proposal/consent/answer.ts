/**
 * The person's answer on the confirmation email's page: "Yes, this was me" (confirm_request) upgrades
 * the request's consent to first_party and owes the CRM an update; "Not me" (deny_request) erases the
 * request and owes the CRM its deletion and sales a word. A token is checked before anything changes,
 * and a refused one changes nothing.
 */
import { json, problem, type Reply } from '../../contract/http.ts';
import type { ConsentAction } from '../../contract/fields.ts';
import type { ConsentAnswerRequest } from '../../contract/requests.ts';
import { CONSENT_ANSWER_MEANINGS } from '../../contract/consent.ts';
import type { SubmitDeps } from '../submit/config.ts';
import { checkToken, type LinkAnswer, type TokenCheck } from '../submit/consent-links.ts';
import { logEvent } from '../submit/log.ts';
import { REQUESTS, type ProposalRecord } from '../submit/record.ts';
import { leaseLeftMs, readVersioned, RecordLease } from '../store/record-lease.ts';
import { completeSteps, leaseTerms } from '../submit/owed-work.ts';
import { owes, REQUEST_STEPS } from '../submit/request-work.ts';
import { markOpen, markSettled, openMarker } from '../store/open-index.ts';
import { eraseRecord } from '../store/retention.ts';
import { completeErasure, oweErasure, readErasure } from './erasure.ts';
import { confirmGrant, readGrant } from './grant.ts';

const ANSWER_OF: Record<ConsentAction, LinkAnswer> = { confirm_request: 'confirm', deny_request: 'deny' };
const POLL_MS = 100;

const REFUSALS: Record<Exclude<TokenCheck, 'valid'>, () => Reply> = {
  invalid: () => problem('confirmation-link-invalid', 'The link does not match a stored request. Nothing was changed.'),
  used: () =>
    problem('confirmation-link-used', 'This link was already used; the answer given stands. Nothing was changed.'),
  expired: () => problem('confirmation-link-expired', 'This link has expired. Nothing was changed.'),
};

/** The record with the person's confirmation: first_party through the email's link, the CRM owed an update. */
export function confirmed(record: ProposalRecord, at: string): ProposalRecord {
  const { consent, hold: _held, ...rest } = record;
  const initially = consent.method !== undefined && consent.vouched_by !== undefined;
  // A held request (CONSENT_CONFIRMATION=required) is now released: the CRM is sent it, confirmed.
  const update =
    record.hold === undefined
      ? {
          consent_update: {
            event: `${record.request_id}.consent-confirmed`,
            state: 'owed' as const,
            attempts: 0,
            since: at,
          },
        }
      : {};
  return {
    ...rest,
    ...update,
    consent: {
      ...consent,
      method: 'email_link',
      vouched_by: 'first_party',
      confirmed_at: at,
      ...(initially && { initially: { method: consent.method!, vouched_by: consent.vouched_by! } }),
    },
    consent_links: { ...record.consent_links!, used: { answer: 'confirm', at } },
  };
}

export async function answerConsent(
  action: ConsentAction,
  request: ConsentAnswerRequest,
  deps: SubmitDeps,
): Promise<Reply> {
  const answer = ANSWER_OF[action];
  const waitUntil = Date.now() + deps.inUseWaitMs;
  for (;;) {
    const found = await readVersioned(deps.store, REQUESTS, request.request_id);
    if (found === null) {
      // A draft confirmed before it is stored (MCP URL elicitation): the grant, by the same token rules.
      const granted = answer === 'confirm' ? await readGrant(deps.store, request.request_id) : null;
      if (granted !== null) {
        const check = checkToken(granted.grant.links, 'confirm', request.token, deps.now());
        if (check !== 'valid') return REFUSALS[check]();
        const at = deps.now().toISOString();
        if (!(await confirmGrant(deps.store, granted.grant, granted.version, at))) continue;
        logEvent('consent_confirmed', { request_id: request.request_id });
        return json(200, answerBody('confirmed', request.request_id));
      }
      // A "Not me" already given leaves its erasure: the same token then hears "used", not "invalid".
      const erased = await readErasure(deps, request.request_id);
      const check =
        erased && answer === 'deny' ? checkToken(erased.links, 'deny', request.token, deps.now()) : 'invalid';
      return REFUSALS[check === 'valid' ? 'used' : check]();
    }
    const { record, version } = found;
    const check = checkToken(record.consent_links, answer, request.token, deps.now());
    if (check !== 'valid') {
      logEvent('consent_link_refused', { request_id: record.request_id, answer, check });
      return REFUSALS[check]();
    }
    // Whoever holds the lease is doing the request's work: its next write would undo this one.
    if (leaseLeftMs(record, deps.now()) > 0 && Date.now() < waitUntil) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    const at = deps.now().toISOString();
    if (answer === 'confirm') {
      // Owed work first in the index, so the sweep finds the CRM's update whatever fails after.
      await markOpen(deps.store, openMarker(record.request_id), record.idempotency_entry);
      const next = confirmed(record, at);
      const lease = await RecordLease.take(leaseTerms(deps), REQUESTS.key(record.request_id), next, {
        ifVersion: version,
      });
      if (lease === null) continue;
      logEvent('consent_confirmed', { request_id: record.request_id });
      // The CRM's update, once (an engine step): done here when the CRM answers, else by the sweep.
      const result = await completeSteps(REQUEST_STEPS, lease, deps, { ignoreBackoff: false, id: record.request_id });
      if (result.stopped === undefined && !owes(result.record))
        await markSettled(deps.store, openMarker(record.request_id));
      return json(200, answerBody('confirmed', record.request_id));
    }
    // The erasure's work first: owed (the CRM's deletion, sales' word), it outlives the record.
    await oweErasure(record, at, deps);
    await eraseRecord(deps.store, record);
    logEvent('consent_denied', { request_id: record.request_id });
    await completeErasure(record.request_id, deps);
    return json(200, answerBody('erased', record.request_id));
  }
}

function answerBody(status: keyof typeof CONSENT_ANSWER_MEANINGS, requestId: string) {
  const message =
    status === 'confirmed'
      ? 'Thank you: your request is confirmed as yours. Nothing else is needed from you.'
      : 'The request sent with your address has been deleted. Nothing else is needed from you.';
  return { status, request_id: requestId, message };
}
