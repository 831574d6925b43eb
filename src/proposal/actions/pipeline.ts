/**
 * The one way an action runs, whichever door parsed it (HTTP, form, MCP), so every rule holds for every door;
 * and what it runs with: the instance the entry builds once and each invocation, passed as values, never ambient.
 */
import { hash } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { API_ACTIONS, type ProposalAction } from '../../contract/fields.ts';
import { consentRequired, json, problem, type Reply } from '../../contract/http.ts';
import type { ConsentEvidence } from '../../contract/consent.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import type { ApiRequest, Validators } from '../../contract/requests.ts';
import type { RequestSource } from '../../contract/source.ts';
import { readConfig, type EnvReader } from '../config.ts';
import { logEvent } from '../log.ts';
import { ProposalsStore } from '../store/blobs.ts';
import { findSensitiveData } from '../guard/index.ts';
import { clientNetworkKey } from '../limits/client-network.ts';
import { fillTimeMs } from '../limits/spam-signals.ts';
import { createMailer } from '../notify/mail.ts';
import { partnerFromKnowledge } from '../notify/partner.ts';
import { KeyDirectories } from '../agent-identity/directory.ts';
import { verifyAgentIdentity } from '../agent-identity/verify.ts';
import { crmAdapter } from '../submit/crm.ts';
import { parseIdempotencyKey } from '../submit/key.ts';
import { submitProposal } from '../submit/submit.ts';
import type { Ctx } from '../work/context.ts';
import { countQuestion } from '../work/questions.ts';
import { oweJob } from '../work/jobs.ts';
import { answerConsent } from '../consent/answer.ts';
import { guide } from './guide.ts';
import { summarize } from './summarize.ts';
import { fieldErrors } from './validation-errors.ts';

/** One invocation: its request, the client as the platform sees it, work after the reply, its start (monotonic ms) and time limit. */
export interface Invocation {
  request: Request;
  ip?: string | undefined;
  waitUntil?: ((work: Promise<unknown>) => void) | undefined;
  startedAt: number;
  limitMs: number;
  /** The body as the door read it (the signature's digest is checked against it). */
  body?: Uint8Array;
}

/** What the entry builds once per instance: the owed work's context but for an invocation's time. */
export interface Intake extends Omit<Ctx, 'retry' | 'ends' | 'limitMs' | 'unreachable'> {
  knowledge: Knowledge;
  validators: Validators;
  directories: KeyDirectories;
  /** How long a submit waits for another of its key before 409. */
  inUseWaitMs?: number;
}

/** The texts state facts; a door says how they are done through it; `keyPointer`: the key's place among the fields (MCP). */
export interface DoorWords {
  action(action: ProposalAction): string;
  key: string;
  keyPointer?: string;
  schemas: string;
}

/** `consent`: how the door saw it given (else what the source's channel implies); `form`: a form post's raw text and key field. */
export interface ActionRequest {
  body: Record<string, unknown>;
  idempotencyKey: string | null;
  door: DoorWords;
  source: RequestSource;
  consent?: ConsentEvidence | undefined;
  form?: { key?: string | undefined; raw: string };
}

/** The instance from the environment, read once; `overrides` for tests (a store, clocks). */
export function createIntake(
  knowledge: Knowledge,
  validators: Validators,
  env: EnvReader,
  overrides: Partial<Intake> = {},
): Intake {
  const { config, problems } = readConfig(env);
  for (const { variable, reason, missing } of problems)
    logEvent(missing ? 'config_missing' : 'config_invalid', { variable, reason });
  const partner = partnerFromKnowledge(knowledge);
  const now = overrides.now ?? (() => new Date());
  return {
    knowledge,
    validators,
    config,
    store: new ProposalsStore({ timeFactor: config.storeTimeFactor }),
    crm: crmAdapter(config.crm, partner),
    mailer: createMailer(config.mail),
    partner,
    consentText: knowledge.consent,
    directories: new KeyDirectories({ now: () => now().getTime(), loopbackHttp: config.loopbackDirectories }),
    now,
    mono: () => performance.now(),
    ...overrides,
  };
}

/** The owed-work context of an invocation: its claims end with it. */
export const workContext = (i: Intake, inv: Pick<Invocation, 'startedAt' | 'limitMs'>): Ctx => ({
  ...i,
  retry: i.config.retry,
  ends: inv.startedAt + inv.limitMs,
  limitMs: inv.limitMs,
});

export const internalError = () =>
  problem(
    'internal-error',
    'The request could not be completed. Retry later; a submit can be retried safely with the same idempotency key.',
  );

/** Forms filled in faster than this are treated as automated. */
export const MIN_FILL_MS = 3000;

/** A form cannot set headers: its key is a hidden field's, or else the content's hash, so a resubmit is recognised. */
function submitKey(form: ActionRequest['form'], sent: string | null) {
  if (!form) return parseIdempotencyKey(sent);
  const fromField = form.key === undefined ? undefined : parseIdempotencyKey(form.key);
  return fromField?.ok
    ? fromField
    : { ok: true as const, key: `form-${hash('sha256', form.raw.replace(/(^|&)form_started_at=\d*/g, ''))}` };
}

const keyRefusal = (reply: Reply, door: DoorWords): Reply => ({
  ...reply,
  body: { ...(reply.body as object), detail: `${(reply.body as { detail: string }).detail} Send it as ${door.key}.` },
});

/**
 * Everything before an action is done: the key's rules, the schema, the spam checks, the guard. The
 * valid request, or the problem. MCP elicitation checks a draft this way before asking anyone.
 */
export async function checked(i: Intake, request: ActionRequest): Promise<Reply | { valid: ApiRequest }> {
  const sentKey = request.idempotencyKey === null ? undefined : parseIdempotencyKey(request.idempotencyKey);
  if (sentKey && !sentKey.ok) return keyRefusal(sentKey.reply, request.door);
  const { body, door } = request;
  // Leading and trailing spaces are never part of a value: the schema sees what is stored.
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') body[name] = value.trim();
  const action = API_ACTIONS.find((a) => a === body.action);
  if (action === undefined) {
    const detail = `must be one of: ${API_ACTIONS.join(', ')}`;
    return problem('unknown-action', `"action" ${detail}.`, { errors: [{ pointer: '#/action', detail }] });
  }
  if (action === 'submit' && body.consent !== true) return consentRequired();
  const validate: ValidateFunction<ApiRequest> = i.validators[action];
  // Without JavaScript the workspace posts every field whichever button was pressed: a form's extra fields are dropped.
  if (request.form && !validate(body))
    for (const error of validate.errors ?? []) {
      const extra = (error.params as { additionalProperty?: string }).additionalProperty;
      if (error.keyword === 'additionalProperties' && error.instancePath === '' && extra !== undefined)
        delete body[extra];
    }
  if (!validate(body)) {
    const errors = fieldErrors(validate.errors);
    if (action === 'submit' && request.idempotencyKey === null && door.keyPointer && !request.form)
      errors.push({ pointer: door.keyPointer, detail: 'is required' });
    const detail = `The ${action} request does not match its schema (${door.schemas}).`;
    return problem('invalid-request', detail, { errors });
  }
  if (body.action === 'confirm_request' || body.action === 'deny_request' || body.action === 'check_link')
    return { valid: body };
  const filledMs = body.action === 'submit' ? fillTimeMs(body.form_started_at, i.now().getTime()) : undefined;
  if (filledMs !== undefined && filledMs < MIN_FILL_MS)
    return problem(
      'spam-suspected',
      'The form was submitted faster than a person can fill it. Review it and submit again.',
    );
  // The key and the client's name are stored and sent on too: held to the same guard (a name that looks like a secret is dropped).
  const sentAsKey = request.idempotencyKey ?? request.form?.key;
  const findings = await findSensitiveData({ ...body, ...(sentAsKey !== undefined && { idempotency_key: sentAsKey }) });
  if (findings.some((f) => f.pointer === '#/idempotency_key'))
    return problem(
      'sensitive-data',
      `The idempotency key looks like a credential or secret; it is stored and sent on, so send a random value (a UUID) instead. Nothing was stored. Send it as ${door.key}.`,
    );
  if (findings.length > 0)
    return problem(
      'sensitive-data',
      'Remove credentials, secrets, card or ID numbers from the named fields; describe them instead. Nothing was stored.',
      { errors: findings.map((f) => ({ pointer: f.pointer, detail: `looks like ${f.label}; remove it` })) },
    );
  return { valid: body };
}

export async function runAction(i: Intake, inv: Invocation, request: ActionRequest): Promise<Reply> {
  const result = await checked(i, request);
  if (!('valid' in result)) return result;
  const { valid } = result;
  const ctx = workContext(i, inv);
  if (valid.action === 'confirm_request' || valid.action === 'deny_request' || valid.action === 'check_link')
    return answerConsent(ctx, valid.action, valid);
  if (valid.action === 'summarize') return json(200, summarize(i.knowledge, valid, request.door));
  if (valid.action === 'guide') {
    const reply = guide(i.knowledge, valid, request.door);
    // Counted, not kept: its topic words, after the reply where the platform allows it, else before it, never skipped.
    if (reply.capabilities.length === 0) {
      const counted = countQuestion(ctx, valid.question)
        .then((day) => (day === undefined ? undefined : oweJob(ctx, 'questions', day)))
        .catch(() => undefined);
      if (inv.waitUntil) inv.waitUntil(counted);
      else await counted;
    }
    return json(200, reply);
  }
  const key = submitKey(request.form, request.idempotencyKey);
  if (!key.ok) return keyRefusal(key.reply, request.door);
  const client = request.source.client;
  const named = client === undefined || (await findSensitiveData({ client })).length === 0 ? client : undefined;
  const network = clientNetworkKey(inv.ip, i.config.networkSecret);
  return submitProposal(ctx, valid, key.key, {
    source: { ...request.source, client: named, ...(network !== undefined && { network }) },
    evidence: request.consent,
    identity: () =>
      verifyAgentIdentity(inv.request, inv.body, {
        directories: i.directories,
        store: i.store,
        now: () => i.now().getTime(),
        loopbackHttp: i.config.loopbackDirectories,
      }),
    later: inv.waitUntil,
    ...(i.inUseWaitMs !== undefined && { inUseWaitMs: i.inUseWaitMs }),
  });
}
