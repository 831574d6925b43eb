/**
 * The one way an action runs, whichever channel brought it: the HTTP API and the workspace's form
 * (handler.ts) and the MCP endpoint (mcp/endpoint.ts) each parse their own wire format, then hand
 * the parsed action here. Key rules, consent, the schema, the anti-spam checks, the
 * sensitive-data guard and the exactly-once submit hold for every channel because they live here.
 */
import type { Knowledge } from '../contract/knowledge.ts';
import type { ProposalAction } from '../contract/fields.ts';
import type { ProposalRequest } from '../contract/requests.ts';
import { json, problem, readEnv, type Reply } from '../contract/http.ts';
import { guide } from './guide.ts';
import { summarize } from './summarize.ts';
import {
  Answer,
  checkSentKey,
  chooseAction,
  guard,
  rejectAutomated,
  requireConsent,
  submitKey,
  trimmedStrings,
  validRequest,
  type Routed,
  type Validators,
} from './request-steps.ts';
import { submitProposal } from './submit/index.ts';
import { submitDepsFromEnv } from './submit/config.ts';
import { partnerFromKnowledge } from './submit/partner.ts';
import type { SubmitDeps } from './submit/deps.ts';
import { logEvent } from './submit/log.ts';
import { sweepIfDue } from './submit/sweep.ts';
import type { RequestSource } from './source.ts';

/** The part of Netlify's function context the function uses (Context of @netlify/functions). */
export interface InvocationContext {
  waitUntil(promise: Promise<unknown>): void;
}

/** One parsed action, as any channel delivers it. */
export interface ActionRequest {
  /** The request object the contract's schemas describe (`action` and its fields). */
  body: Record<string, unknown>;
  /** The Idempotency-Key as sent (the HTTP header, or the MCP submit tool's argument); null when none. */
  idempotencyKey: string | null;
  source: RequestSource;
  /**
   * A plain HTML form post: fields of other steps are dropped, and without a key field the key
   * is derived from the form's own bytes, so resubmitting the same form is recognised.
   */
  form?: { key?: string | undefined; raw: string };
}

export interface ActionPipeline {
  run(request: ActionRequest): Promise<Routed>;
  /** Starts the redelivery sweep after the reply, where the platform keeps the invocation alive. */
  scheduleSweep(context: InvocationContext | undefined): void;
}

/** The reply to an error no step expected; the caller logs nothing sent. */
export function internalError(): Reply {
  return problem(
    'internal-error',
    'The request could not be completed. Retry later; submissions can be retried safely with the same Idempotency-Key.',
  );
}

/** `tuning`: the clock and the 409 wait, for tests that move time instead of waiting for it. */
export function createActionPipeline(
  k: Knowledge,
  validators: Validators,
  tuning: Pick<SubmitDeps, 'now' | 'inUseWaitMs'> = {},
): ActionPipeline {
  let deps: SubmitDeps | undefined;
  const submitDeps = () => (deps ??= { ...submitDepsFromEnv(readEnv, partnerFromKnowledge(k), k.consent), ...tuning });

  /** guide and summarize answer at once; submit needs its idempotency key first. */
  async function dispatch(request: ProposalRequest, key: () => string, source: RequestSource): Promise<Reply> {
    if (request.action === 'guide') return json(200, guide(k, request));
    if (request.action === 'summarize') return json(200, summarize(k, request));
    return submitProposal(request, key(), submitDeps(), source);
  }

  async function run({ body: sent, idempotencyKey, source, form }: ActionRequest): Promise<Routed> {
    let action: ProposalAction | undefined;
    try {
      const sentKey = checkSentKey(idempotencyKey);
      const body = trimmedStrings(sent);
      action = chooseAction(body);
      requireConsent(action, body);
      const request = validRequest(validators, action, body, form !== undefined);
      rejectAutomated(request);
      await guard(body);
      const reply = await dispatch(
        request,
        () => submitKey(form !== undefined, form?.key, form?.raw ?? '', sentKey),
        source,
      );
      return { reply, action, form: form !== undefined };
    } catch (error) {
      if (!(error instanceof Answer)) throw error;
      return { reply: error.reply, ...(action ? { action } : {}), form: form !== undefined };
    }
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

  return { run, scheduleSweep };
}
