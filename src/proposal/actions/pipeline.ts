/** The one way an action runs, whichever channel parsed it (HTTP, form, MCP), so every rule holds for every channel. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { hash } from 'node:crypto';
import type { Knowledge } from '../../contract/knowledge.ts';
import { API_ACTIONS, type ApiAction } from '../../contract/fields.ts';
import type { ValidateFunction } from 'ajv';
import type { ApiRequest, Validators } from '../../contract/requests.ts';
import { answerConsent } from '../consent/answer.ts';
import { consentRequired, json, problem, readEnv, type Reply } from '../../contract/http.ts';
import { guide } from './guide.ts';
import { summarize } from './summarize.ts';
import { fieldErrors } from './validation-errors.ts';
import { findSensitiveData } from '../guard/index.ts';
import { parseIdempotencyKey } from '../submit/idempotency-key.ts';
import { submitProposal, type Later } from '../submit/index.ts';
import { submitDepsFromEnv, type SubmitDeps } from '../submit/config.ts';
import { partnerFromKnowledge } from '../submit/partner.ts';
import { errorName, logEvent } from '../submit/log.ts';
import { sweepIfDue } from '../submit/sweep.ts';
import type { RequestSource } from '../../contract/source.ts';
import type { ConsentEvidence } from '../../contract/consent.ts';
import { fillTimeMs } from '../submit/spam-signals.ts';
import { guardedMetadata } from './stored-metadata.ts';
import type { DoorWords } from './door-words.ts';

export interface InvocationContext {
  waitUntil(promise: Promise<unknown>): void;
  /** The client's address as the platform saw it (Netlify's `context.ip`): hashed (client-network.ts), never stored. */
  ip?: string;
}

/**
 * `idempotencyKey`: the HTTP header or the MCP tool's argument; `door`: the words of the door it came
 * in by, for texts that point at an action or the key; `form`: a form post's raw bytes and hidden key field.
 */
export interface ActionRequest {
  body: Record<string, unknown>;
  idempotencyKey: string | null;
  door: DoorWords;
  source: RequestSource;
  /** How the door saw consent given; without it, what the source's channel implies (contract/consent.ts). */
  consent?: ConsentEvidence;
  form?: { key?: string | undefined; raw: string };
}

export interface ActionPipeline {
  run(request: ActionRequest): Promise<Reply>;
  /**
   * Binds the invocation: work after the reply (a submit's sales notice, then the redelivery sweep) goes
   * to its waitUntil, only for a request that passed validation (not OPTIONS, tools/list, invalid ones).
   */
  scheduleSweep(context: InvocationContext | undefined): void;
}

/** The running invocation (scheduleSweep binds it), so work after its reply reaches its waitUntil. */
const invocation = new AsyncLocalStorage<InvocationContext>();

/** Forms filled in faster than this are treated as automated. */
export const MIN_FILL_MS = 3000;

export function internalError(): Reply {
  return problem(
    'internal-error',
    'The request could not be completed. Retry later; a submit can be retried safely with the same idempotency key.',
  );
}

/**
 * Without JavaScript the workspace posts every field of the page whichever button was pressed,
 * so a form's fields the action does not take are dropped. JSON clients get no such leniency.
 */
function validated(validate: ValidateFunction<ApiRequest>, body: Record<string, unknown>, form: boolean) {
  if (form && !validate(body)) {
    for (const error of validate.errors ?? []) {
      const extra = (error.params as { additionalProperty?: string }).additionalProperty;
      if (error.keyword === 'additionalProperties' && error.instancePath === '' && extra !== undefined)
        delete body[extra];
    }
  }
  return validate(body) ? body : undefined;
}

/**
 * Cheap spam check before the costlier sensitive-data scan; a filled-in `website` trap already failed
 * the schema. A start in the future or older than the form's lifetime is no fill time (fillTimeMs):
 * not evidence of automation, and not recorded as checks passed either.
 */
function looksAutomated(request: ApiRequest, now: Date): boolean {
  if (request.action !== 'submit') return false;
  const filledInMs = fillTimeMs(request.form_started_at, now.getTime());
  return filledInMs !== undefined && filledInMs < MIN_FILL_MS;
}

/** A form cannot set headers: its key is a hidden field's, or else the content's hash, so a resubmit is recognised. */
function submitKey(form: ActionRequest['form'], sent: string | null) {
  if (!form) return parseIdempotencyKey(sent);
  const fromField = form.key === undefined ? undefined : parseIdempotencyKey(form.key);
  return fromField?.ok
    ? fromField
    : { ok: true as const, key: `form-${hash('sha256', form.raw.replace(/(^|&)form_started_at=\d*/g, ''))}` };
}

/** A refused key: the problem states the rule, the door's words where the key goes. */
function keyRefusal(reply: Reply, door: DoorWords): Reply {
  const body = reply.body as { detail: string };
  return { ...reply, body: { ...body, detail: `${body.detail} Send it as ${door.key}.` } };
}

/** `tuning`: the clock and the 409 wait, for tests that move time instead of waiting for it. */
export function createActionPipeline(
  k: Knowledge,
  validators: Validators,
  tuning: Partial<Pick<SubmitDeps, 'now' | 'inUseWaitMs'>> = {},
): ActionPipeline {
  let deps: SubmitDeps | undefined;
  const submitDeps = () => (deps ??= { ...submitDepsFromEnv(readEnv, partnerFromKnowledge(k), k.consent), ...tuning });

  async function reply(
    action: ApiAction,
    body: Record<string, unknown>,
    request: ActionRequest,
    after: { reached: boolean; later?: Later },
  ): Promise<Reply> {
    if (action === 'submit' && body.consent !== true) return consentRequired();
    const valid = validated(validators[action], body, request.form !== undefined);
    if (valid === undefined) {
      const errors = fieldErrors(validators[action].errors);
      // A submit missing its key as well hears so at once, where the door takes the key with the fields.
      const { keyPointer } = request.door;
      if (action === 'submit' && request.idempotencyKey === null && keyPointer && !request.form)
        errors.push({ pointer: keyPointer, detail: 'is required' });
      return problem('invalid-request', `The ${action} request does not match its schema (${request.door.schemas}).`, {
        errors,
      });
    }
    // The person's answer on the confirmation page: a request id and a token, nothing to scan.
    if (valid.action === 'confirm_request' || valid.action === 'deny_request')
      return answerConsent(valid.action, valid, submitDeps());
    // On the clock the pipeline is given (tuning.now), as the rest of a submit.
    if (looksAutomated(valid, submitDeps().now())) {
      return problem(
        'spam-suspected',
        'The form was submitted faster than a person can fill it. Review it and submit again.',
      );
    }
    // Names the field and the kind, never the value.
    const findings = await findSensitiveData(body);
    if (findings.length > 0) {
      return problem(
        'sensitive-data',
        'Remove credentials, secrets, card or ID numbers from the named fields; describe them instead. Nothing was stored.',
        { errors: findings.map((f) => ({ pointer: f.pointer, detail: `looks like ${f.label}; remove it` })) },
      );
    }
    after.reached = true;
    if (valid.action === 'guide') return json(200, guide(k, valid, request.door));
    if (valid.action === 'summarize') return json(200, summarize(k, valid, request.door));
    const key = submitKey(request.form, request.idempotencyKey);
    if (!key.ok) return keyRefusal(key.reply, request.door);
    const meta = await guardedMetadata(key.key, request.source);
    return meta.keyRefused ?? submitProposal(valid, key.key, submitDeps(), meta.source, after.later, request.consent);
  }

  async function run(request: ActionRequest): Promise<Reply> {
    // A key that is sent is held to its rules on every action, as the OpenAPI document says.
    const sentKey = request.idempotencyKey === null ? undefined : parseIdempotencyKey(request.idempotencyKey);
    if (sentKey && !sentKey.ok) return keyRefusal(sentKey.reply, request.door);
    // Leading and trailing spaces are never part of a value; the schema then sees what is stored.
    const body = request.body;
    for (const [name, value] of Object.entries(body)) if (typeof value === 'string') body[name] = value.trim();
    const action = API_ACTIONS.find((a) => a === body.action);
    if (action === undefined) {
      const detail = `must be one of: ${API_ACTIONS.join(', ')}`;
      return problem('unknown-action', `"action" ${detail}.`, { errors: [{ pointer: '#/action', detail }] });
    }
    const context = invocation.getStore();
    const deferred: Promise<unknown>[] = [];
    const after = { reached: false, ...(context && { later: (work: Promise<unknown>) => void deferred.push(work) }) };
    const result = await reply(action, body, request, after);
    if (context && after.reached) context.waitUntil(afterReply(deferred));
    return result;
  }

  /** After the reply (setImmediate): what the submit left to follow it, then the sweep; adds nothing to the reply's time. */
  async function afterReply(deferred: Promise<unknown>[]): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (const outcome of await Promise.allSettled(deferred)) {
      if (outcome.status === 'rejected') logEvent('unexpected_error', { name: errorName(outcome.reason) });
    }
    try {
      await sweepIfDue(submitDeps());
    } catch (error) {
      logEvent('sweep_error', { name: errorName(error) });
    }
  }

  function scheduleSweep(context: InvocationContext | undefined): void {
    if (typeof context?.waitUntil === 'function') invocation.enterWith(context);
  }

  return { run, scheduleSweep };
}
