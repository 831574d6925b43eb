/**
 * The person's answer on the confirmation pages: "Yes, this was me" (confirm_request) makes the consent
 * first_party and owes the CRM an update; "Not me" (deny_request), also after a "Yes", erases the
 * request and owes the CRM's deletion and sales' word; check_link tells what a link names, changing
 * nothing. A token is checked before anything changes, and a refused one changes nothing.
 */
import { json, problem, type Reply } from '../../contract/http.ts';
import type { ConsentAnswerRequest, LinkCheckRequest } from '../../contract/requests.ts';
import { logEvent } from '../log.ts';
import { StoreUnavailable } from '../store/blobs.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../../contract/idempotency-rules.ts';
import { checkToken, type LinkAnswer, type TokenCheck } from '../notify/links.ts';
import { recordKey, type ProposalRecord } from '../submit/record.ts';
import type { Ctx } from '../work/context.ts';
import { Owner } from '../work/engine.ts';
import { erasureJobId, readErasure, runJobNow } from '../work/jobs.ts';
import { REQUESTS } from '../work/request-steps.ts';
import { answerGrant, readGrant } from './grants.ts';

const POLL_MS = 100;
const WAIT_MS = 5_000;

const REFUSED = {
  invalid: 'The link does not match a stored request.',
  used: 'This link was already used; the answer given stands.',
  expired: 'This link has expired.',
};
const refusal = (check: Exclude<TokenCheck, 'valid'>) =>
  problem(`confirmation-link-${check}`, `${REFUSED[check]} Nothing was changed.`);

/** The record with the person's answer: a confirmation makes it first_party and releases a held request. */
function withAnswer(r: ProposalRecord, answer: LinkAnswer, at: string): ProposalRecord {
  if (answer === 'deny') return { ...r, consent_links: { ...r.consent_links!, used: { answer, at } } };
  const { hold, ...rest } = r;
  const { method, vouched_by } = r.consent;
  return {
    ...rest,
    // Held (strict mode), it was never sent: the delivery carries the confirmed consent. Otherwise the CRM is owed an update.
    ...(hold === undefined && { consent_update: { state: 'owed' as const } }),
    consent: {
      ...r.consent,
      method: 'email_link',
      vouched_by: 'first_party',
      confirmed_at: at,
      ...(method !== undefined && vouched_by !== undefined && { initially: { method, vouched_by } }),
    },
    consent_links: { ...r.consent_links!, used: { answer: 'confirm', at } },
  };
}

/** What a link names, in the site's words: the page shows it before anything is pressed. */
const described = (company: string, at: string, choices: string[]) => ({ company, received_at: at, choices });

type LinkAction = 'confirm_request' | 'deny_request' | 'check_link';
type LinkBody = ConsentAnswerRequest | LinkCheckRequest;

/** The answer, or a 503 the person can retry when the store did not answer: nothing was changed then. */
export async function answerConsent(ctx: Ctx, action: LinkAction, body: LinkBody): Promise<Reply> {
  try {
    return await answered(ctx, action, body);
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    logEvent('store_unavailable', { request_id: body.request_id, operation: error.operation, reason: error.reason });
    const detail = 'Your answer could not be recorded just now: press the button again in a moment.';
    return problem('store-unavailable', detail, { retry_after_seconds: STORE_RETRY_AFTER_SECONDS });
  }
}

async function answered(ctx: Ctx, action: LinkAction, body: LinkBody): Promise<Reply> {
  const answer: LinkAnswer =
    action === 'confirm_request' ? 'confirm' : action === 'deny_request' ? 'deny' : (body as LinkCheckRequest).answer;
  const { request_id: id, token } = body;
  const secret = ctx.config.consent.secret;
  const giveUpAt = ctx.mono() + WAIT_MS;
  for (;;) {
    const found = await ctx.store.read(recordKey(id));
    if (found === null || !REQUESTS.is(found.value)) {
      // A draft confirmed on the page before it is stored (MCP URL elicitation): its grant, by the same rules.
      const granted = answer === 'confirm' ? await readGrant(ctx.store, id) : null;
      if (granted !== null) {
        const { grant } = granted;
        const check = checkToken(secret, id, grant.links, 'confirm', token, ctx.now());
        const state = {
          status: check,
          ...(grant.links.used && { answered: grant.links.used.answer }),
          ...described(grant.summary.company, grant.created_at, grant.summary.choices),
          consent_text: ctx.consentText.text,
        };
        if (action === 'check_link') return check === 'invalid' ? refusal(check) : json(200, state);
        if (check !== 'valid') return refusal(check);
        if (!(await answerGrant(ctx.store, granted, 'confirmed', ctx.now().toISOString()))) continue;
        logEvent('consent_confirmed', { request_id: id, grant: true });
        return json(200, answerBody('confirmed', id));
      }
      // A "Not me" already given leaves its erasure while its link lives: either link then hears "used".
      const erased = await readErasure(ctx, id);
      const check = erased === undefined ? 'invalid' : checkToken(secret, id, erased.links, answer, token, ctx.now());
      if (action === 'check_link' && check !== 'invalid') return json(200, { status: 'used', answered: 'deny' });
      return refusal(check === 'valid' ? 'used' : check);
    }
    const record = found.value;
    const check = checkToken(secret, id, record.consent_links, answer, token, ctx.now());
    if (action === 'check_link') {
      if (check === 'invalid') return refusal(check);
      const choices = [record.guidance.primary_need, record.intake.engagement_model].flatMap(
        (c) => ctx.partner.choiceLabels[c ?? ''] ?? [],
      );
      return json(200, {
        status: check,
        ...(record.consent_links?.used && { answered: record.consent_links.used.answer }),
        ...described(record.contact.company, record.received_at, choices),
      });
    }
    if (check !== 'valid') {
      logEvent('consent_link_refused', { request_id: id, answer, check });
      return refusal(check);
    }
    const at = ctx.now().toISOString();
    const change = (r: ProposalRecord) => withAnswer(r, answer, at);
    const owner = await Owner.take(REQUESTS, { record, version: found.version }, ctx, change);
    if (owner === null) {
      // Whoever holds the claim is doing the request's work: it usually finishes in moments.
      if (ctx.mono() >= giveUpAt)
        return problem(
          'idempotency-key-in-use',
          'The request is being processed right now. Press the button again in a few seconds; nothing was changed.',
          { retry_after_seconds: 5 },
        );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    if (answer === 'confirm') logEvent('consent_confirmed', { request_id: id });
    // What the answer owes, now: the CRM's update, or the erasure and then its job.
    await owner.run();
    if (answer === 'deny') await runJobNow(ctx, erasureJobId(id));
    return json(200, answerBody(answer === 'confirm' ? 'confirmed' : 'erased', id));
  }
}

function answerBody(status: 'confirmed' | 'erased', requestId: string) {
  const message =
    status === 'confirmed'
      ? 'Thank you: your request is confirmed as yours. Nothing else is needed from you.'
      : 'The request sent with your address has been deleted, and we will not contact you about it. Nothing else is needed from you.';
  return { status, request_id: requestId, message };
}
