/**
 * POST /api/proposal: runs the steps of ./request-steps.ts over one request, then the action.
 * Every failure is an RFC 9457 problem; nothing here throws to the platform.
 */
import type { Knowledge } from './knowledge.ts';
import type { GuideRequest, ProposalAction, SubmitRequest, SummarizeRequest } from './fields.ts';
import { json, problem, readEnv, withProblemBase, type Reply } from './http.ts';
import { mediaTypeOf } from './parse-request.ts';
import { guide } from './guide.ts';
import { summarize } from './summarize.ts';
import {
  Answer,
  checkSentKey,
  chooseAction,
  guard,
  negotiate,
  parse,
  read,
  rejectAutomated,
  requireConsent,
  submitKey,
  trimmedStrings,
  validate,
  type Flow,
  type Routed,
  type Validators,
} from './request-steps.ts';
import { submitProposal } from './submit/index.ts';
import { submitDepsFromEnv } from './submit/config.ts';
import type { SubmitDeps } from './submit/deps.ts';
import { htmlReply } from './html-reply.ts';
import { logEvent } from './submit/log.ts';
import { sweepIfDue } from './submit/sweep.ts';

/** The part of Netlify's function context the handler uses (Context of @netlify/functions). */
export interface InvocationContext {
  waitUntil(promise: Promise<unknown>): void;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, idempotency-key',
  'access-control-expose-headers': 'retry-after, idempotent-replayed, location',
};

/** `tuning`: the clock and the 409 wait, for tests that move time instead of waiting for it. */
export function createProposalHandler(
  k: Knowledge,
  validators: Validators,
  tuning: Pick<SubmitDeps, 'now' | 'inUseWaitMs'> = {},
) {
  let deps: SubmitDeps | undefined;
  const submitDeps = () =>
    (deps ??= {
      ...submitDepsFromEnv(
        readEnv,
        {
          name: k.partner.name,
          describedAs: k.partner.described_as,
          email: k.partner.email,
          proposalUrl: k.urls.proposal_page,
        },
        k.consent,
      ),
      ...tuning,
    });

  /** The steps in order; each either answers (a problem, or the action's reply) or goes on. */
  async function route(req: Request): Promise<Routed> {
    const flow: Flow = { req, media: mediaTypeOf(req.headers.get('content-type')), form: false };
    flow.form = flow.media === 'form';
    try {
      const media = negotiate(flow);
      const raw = await read(req);
      const parsed = parse(raw, media);
      const sentKey = checkSentKey(req);
      const body = trimmedStrings(parsed.body);
      flow.action = chooseAction(body);
      requireConsent(flow.action, body);
      validate(validators[flow.action], flow.action, body, flow.form);
      rejectAutomated(flow.action, body);
      await guard(body);
      const reply = await dispatch(flow.action, body, () => submitKey(flow.form, parsed.formKey, raw, sentKey));
      return { reply, action: flow.action, form: flow.form };
    } catch (error) {
      if (!(error instanceof Answer)) throw error;
      return { reply: error.reply, ...(flow.action ? { action: flow.action } : {}), form: flow.form };
    }
  }

  /** guide and summarize answer at once; submit needs its idempotency key first. */
  async function dispatch(act: ProposalAction, body: Record<string, unknown>, key: () => string): Promise<Reply> {
    if (act === 'guide') return json(200, guide(k, body as unknown as GuideRequest));
    if (act === 'summarize') return json(200, summarize(k, body as unknown as SummarizeRequest));
    return submitProposal(body as unknown as SubmitRequest, key(), submitDeps());
  }

  /**
   * After the reply: the platform keeps the invocation alive for the promise, and the sweep
   * claims its lock only once the reply is on its way (setImmediate), so it adds nothing to it.
   */
  function scheduleSweep(context: InvocationContext | undefined): void {
    if (typeof context?.waitUntil !== 'function') return;
    const sweep = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      try {
        await sweepIfDue(submitDeps());
      } catch (error) {
        // No Blobs here (e.g. a bare local run): nothing to sweep.
        logEvent('sweep_error', { name: error instanceof Error ? error.name : 'unknown' });
      }
    });
    context.waitUntil(sweep);
  }

  return async function handle(req: Request, context?: InvocationContext): Promise<Response> {
    scheduleSweep(context);
    // A form post's reply page shows the form again with what was typed, so keep a copy to read.
    const copy =
      mediaTypeOf(req.headers.get('content-type')) === 'form' && req.method === 'POST' ? req.clone() : undefined;
    let routed: Routed;
    try {
      routed = await route(req);
    } catch (error) {
      logEvent('unexpected_error', { name: error instanceof Error ? error.name : 'unknown' });
      routed = {
        reply: problem(
          'internal-error',
          'The request could not be completed. Retry later; submissions can be retried safely with the same Idempotency-Key.',
        ),
        form: false,
      };
    }
    const { action, form } = routed;
    const reply = withProblemBase(routed.reply, k.urls.agents);
    const accept = req.headers.get('accept') ?? '';
    const wantsHtml = form || (/\btext\/html\b/.test(accept) && !/json/.test(accept));
    if (wantsHtml && reply.status !== 204) {
      const posted = copy && reply.status !== 413 ? new URLSearchParams(await copy.text().catch(() => '')) : undefined;
      return htmlReply(k, reply, action, posted);
    }
    const headers = new Headers({ ...CORS, 'cache-control': 'no-store' });
    for (const [name, value] of Object.entries(reply.headers ?? {})) headers.set(name, value);
    return new Response(reply.body === null ? null : JSON.stringify(reply.body), { status: reply.status, headers });
  };
}
