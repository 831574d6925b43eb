/**
 * The steps of a proposal action, in the order they run. The HTTP handler's own: negotiate → read →
 * parse; then, for every channel (pipeline.ts): check the sent key → choose the action → consent →
 * validate → anti-spam → sensitive-data guard, and the dispatch. A step that answers the request
 * throws an Answer with its reply.
 */
import { ACTIONS, type ProposalAction } from '../contract/fields.ts';
import type { GuideRequest, ProposalRequest, SubmitRequest, SummarizeRequest } from '../contract/requests.ts';
import { problem, type Reply } from '../contract/http.ts';
import { consentRequired } from '../contract/consent-required.ts';
import { readBody } from './read-body.ts';
import { parseBody, type MediaType } from './parse-request.ts';
import { fieldErrors } from './validation-errors.ts';
import { findSensitiveData } from './sensitive-data.ts';
import { parseIdempotencyKey, type IdempotencyKeyResult } from './submit/idempotency-key.ts';
import { sha256Hex } from './submit/fingerprint.ts';

/** A compiled request schema: a body it accepts has the schema's type (requests.ts). */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: import('ajv').ErrorObject[] | null;
}
export interface Validators {
  guide: Validator<GuideRequest>;
  summarize: Validator<SummarizeRequest>;
  submit: Validator<SubmitRequest>;
}

/** Forms faster than this are treated as automated; people need longer to read and type. */
const MIN_FILL_MS = 3000;

/**
 * The workspace is one HTML form: without JavaScript it posts every field of the page whichever
 * step's button was pressed. Fields that the chosen action does not take are dropped, so asking
 * for guidance with step 2 already filled in still works. JSON clients get no such leniency.
 */
function dropOtherStepsFields(
  body: Record<string, unknown>,
  validate: { (data: unknown): boolean; errors?: Validator<unknown>['errors'] },
): void {
  if (validate(body)) return;
  for (const error of validate.errors ?? []) {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    if (error.keyword === 'additionalProperties' && error.instancePath === '' && extra !== undefined)
      delete body[extra];
  }
}

/** Leading and trailing spaces are never part of a value; the schema then sees what is stored. */
export function trimmedStrings(body: Record<string, unknown>): Record<string, unknown> {
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') body[name] = value.trim();
  return body;
}

/** What the HTTP handler knows about a request so far; a step that answers leaves the rest unset. */
export interface Flow {
  req: Request;
  media: MediaType | null;
  form: boolean;
  action?: ProposalAction;
}

export interface Routed {
  reply: Reply;
  action?: ProposalAction;
  form: boolean;
}

/** Thrown by a step that answers the request itself; route() turns it into the reply. */
export class Answer extends Error {
  readonly reply: Reply;
  constructor(reply: Reply) {
    super('answered');
    this.name = 'Answer';
    this.reply = reply;
  }
}
const answer = (reply: Reply): never => {
  throw new Answer(reply);
};

/** Method and media type: only POST of JSON or of the workspace's form goes on. */
export function negotiate({ req, media }: Flow): MediaType {
  if (req.method === 'OPTIONS') answer({ status: 204, body: null });
  if (req.method !== 'POST') {
    answer(
      problem('method-not-allowed', 'POST a JSON body; GET /api/proposal serves the contract.', {
        headers: { allow: 'GET, POST, OPTIONS' },
      }),
    );
  }
  return (
    media ??
    answer(
      problem(
        'unsupported-media-type',
        'Send application/json (or application/x-www-form-urlencoded from the proposal workspace form).',
      ),
    )
  );
}

/** The body, read to its end within the contract's size limit. */
export async function read(req: Request): Promise<string> {
  const raw = await readBody(req);
  if (raw.ok) return raw.text;
  return answer(
    raw.reason === 'too-large'
      ? problem('payload-too-large', 'The body is larger than the documented max_body_bytes limit of the contract.')
      : problem('malformed-json', 'The request body could not be read.'),
  );
}

export function parse(raw: string, media: MediaType): { body: Record<string, unknown>; formKey?: string } {
  const parsed = parseBody(raw, media);
  if (parsed.ok) return parsed;
  return answer(
    parsed.kind === 'malformed-json'
      ? problem('malformed-json', 'The body is not valid JSON.')
      : problem('invalid-request', 'The body must be a JSON object.', {
          errors: [{ pointer: '#', detail: 'must be an object' }],
        }),
  );
}

/** A key that is sent is held to its rules on every action, as the OpenAPI document says. */
export function checkSentKey(sent: string | null): IdempotencyKeyResult | undefined {
  const checked = sent === null ? undefined : parseIdempotencyKey(sent);
  if (checked && !checked.ok) answer(checked.reply);
  return checked;
}

export function chooseAction(body: Record<string, unknown>): ProposalAction {
  const action = body.action;
  if (typeof action === 'string' && (ACTIONS as readonly string[]).includes(action)) return action as ProposalAction;
  return answer(
    problem('unknown-action', `"action" must be one of: ${ACTIONS.join(', ')}.`, {
      errors: [{ pointer: '#/action', detail: `must be one of: ${ACTIONS.join(', ')}` }],
    }),
  );
}

export function requireConsent(act: ProposalAction, body: Record<string, unknown>): void {
  if (act !== 'submit' || body.consent === true) return;
  answer(consentRequired());
}

function validate<T>(validator: Validator<T>, act: ProposalAction, body: Record<string, unknown>, form: boolean): T {
  if (form) dropOtherStepsFields(body, validator);
  if (validator(body)) return body;
  return answer(
    problem('invalid-request', `The ${act} request does not match the contract (GET /api/proposal).`, {
      errors: fieldErrors(validator.errors),
    }),
  );
}

/** The body checked against its action's schema, and from here on typed by it. */
export function validRequest(
  validators: Validators,
  act: ProposalAction,
  body: Record<string, unknown>,
  form: boolean,
): ProposalRequest {
  if (act === 'guide') return validate(validators.guide, act, body, form);
  if (act === 'summarize') return validate(validators.summarize, act, body, form);
  return validate(validators.submit, act, body, form);
}

/** Cheap spam checks before the (costlier) sensitive-data scan. */
export function rejectAutomated(request: ProposalRequest): void {
  if (request.action !== 'submit') return;
  // A filled-in spam trap (`website`) already failed the schema (maxLength 0).
  // A negative time means the browser's clock runs ahead of ours: no evidence of automation.
  const startedAt = request.form_started_at;
  const filledInMs = startedAt === undefined ? undefined : Date.now() - startedAt;
  if (filledInMs !== undefined && filledInMs >= 0 && filledInMs < MIN_FILL_MS) {
    answer(
      problem('spam-suspected', 'The form was submitted faster than a person can fill it. Review it and submit again.'),
    );
  }
}

/** The sensitive-data guard: names the field and the kind, never the value. */
export async function guard(body: Record<string, unknown>): Promise<void> {
  const findings = await findSensitiveData(body);
  if (findings.length === 0) return;
  answer(
    problem(
      'sensitive-data',
      'Remove credentials, secrets, card or ID numbers from the named fields; describe them instead. Nothing was stored.',
      {
        errors: findings.map((f) => ({ pointer: f.pointer, detail: `looks like ${f.label}; remove it` })),
      },
    ),
  );
}

/**
 * A plain HTML form cannot set headers: its key comes from a hidden field (held to the header's
 * rules), or else from the content itself, so resubmitting the same form is recognised.
 */
export function submitKey(
  form: boolean,
  formKey: string | undefined,
  raw: string,
  sentKey: IdempotencyKeyResult | undefined,
): string {
  if (form) {
    const fromField = formKey === undefined ? undefined : parseIdempotencyKey(formKey);
    return fromField?.ok ? fromField.key : `form-${sha256Hex(raw.replace(/(^|&)form_started_at=\d*/g, ''))}`;
  }
  const key = sentKey ?? parseIdempotencyKey(null);
  return key.ok ? key.key : answer(key.reply);
}
