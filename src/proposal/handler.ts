/**
 * POST /api/proposal: method → media type → bounded body → parse → action → schema → sensitive-data
 * guard → action. Every failure is an RFC 9457 problem; nothing here throws to the platform.
 */
import type { Knowledge } from './knowledge.ts';
import {
  ACTIONS,
  type GuideRequest,
  type ProposalAction,
  type SubmitRequest,
  type SummarizeRequest,
} from './fields.ts';
import { json, problem, readEnv, setProblemBase, type Reply } from './http.ts';
import { readBody } from './read-body.ts';
import { mediaTypeOf, parseBody } from './parse-request.ts';
import { fieldErrors } from './validation-errors.ts';
import { findSensitiveData } from './sensitive-data.ts';
import { guide } from './guide.ts';
import { summarize } from './summarize.ts';
import { parseIdempotencyKey } from './submit/idempotency-key.ts';
import { sha256Hex } from './submit/fingerprint.ts';
import { submitProposal } from './submit/index.ts';
import { submitDepsFromEnv } from './submit/config.ts';
import type { SubmitDeps } from './submit/deps.ts';
import { htmlReply } from './html-reply.ts';
import { logEvent } from './submit/log.ts';

export interface Validator {
  (data: unknown): boolean;
  errors?: import('ajv').ErrorObject[] | null;
}
export type Validators = Record<ProposalAction, Validator>;

/** Forms faster than this are treated as automated; people need longer to read and type. */
const MIN_FILL_MS = 3000;

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, idempotency-key',
  'access-control-expose-headers': 'retry-after, idempotent-replayed, location',
};

/**
 * The workspace is one HTML form: without JavaScript it posts every field of the page whichever
 * step's button was pressed. Fields that the chosen action does not take are dropped, so asking
 * for guidance with step 2 already filled in still works. JSON clients get no such leniency.
 */
function dropOtherStepsFields(body: Record<string, unknown>, validate: Validator): void {
  if (validate(body)) return;
  for (const error of validate.errors ?? []) {
    const extra = (error.params as { additionalProperty?: string }).additionalProperty;
    if (error.keyword === 'additionalProperties' && error.instancePath === '' && extra !== undefined)
      delete body[extra];
  }
}

/** Leading and trailing spaces are never part of a value; the schema then sees what is stored. */
function trimmedStrings(body: Record<string, unknown>): Record<string, unknown> {
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') body[name] = value.trim();
  return body;
}

export function createProposalHandler(k: Knowledge, validators: Validators) {
  setProblemBase(k.urls.agents);
  let deps: SubmitDeps | undefined;
  const submitDeps = () =>
    (deps ??= submitDepsFromEnv(
      readEnv,
      {
        name: k.partner.name,
        describedAs: k.partner.described_as,
        email: k.partner.email,
        proposalUrl: k.urls.proposal_page,
      },
      k.consent,
    ));

  async function route(req: Request): Promise<{ reply: Reply; action?: ProposalAction; form: boolean }> {
    const media = mediaTypeOf(req.headers.get('content-type'));
    const form = media === 'form';
    if (req.method === 'OPTIONS') return { reply: { status: 204, body: null }, form };
    if (req.method !== 'POST') {
      return {
        reply: problem('method-not-allowed', 'POST a JSON body; GET /api/proposal serves the contract.', {
          headers: { allow: 'GET, POST, OPTIONS' },
        }),
        form,
      };
    }
    if (!media) {
      return {
        reply: problem(
          'unsupported-media-type',
          'Send application/json (or application/x-www-form-urlencoded from the proposal workspace form).',
        ),
        form,
      };
    }
    const raw = await readBody(req);
    if (!raw.ok) {
      return raw.reason === 'too-large'
        ? {
            reply: problem(
              'payload-too-large',
              'The body is larger than the documented max_body_bytes limit of the contract.',
            ),
            form,
          }
        : { reply: problem('malformed-json', 'The request body could not be read.'), form };
    }
    const parsed = parseBody(raw.text, media);
    if (!parsed.ok) {
      return parsed.kind === 'malformed-json'
        ? { reply: problem('malformed-json', 'The body is not valid JSON.'), form }
        : {
            reply: problem('invalid-request', 'The body must be a JSON object.', {
              errors: [{ pointer: '#', detail: 'must be an object' }],
            }),
            form,
          };
    }
    // A key that is sent is held to its rules on every action, as the OpenAPI document says.
    const sentKey = req.headers.get('idempotency-key');
    const checkedKey = sentKey === null ? undefined : parseIdempotencyKey(sentKey);
    if (checkedKey && !checkedKey.ok) return { reply: checkedKey.reply, form };
    const body = trimmedStrings(parsed.body);
    const action = body.action;
    if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action)) {
      return {
        reply: problem('unknown-action', `"action" must be one of: ${ACTIONS.join(', ')}.`, {
          errors: [{ pointer: '#/action', detail: `must be one of: ${ACTIONS.join(', ')}` }],
        }),
        form,
      };
    }
    const act = action as ProposalAction;
    if (act === 'submit' && body.consent !== true) {
      return {
        reply: problem(
          'consent-required',
          'A request is submitted only with the sender\'s consent: set "consent" to true after showing the consent text of the contract.',
          {
            errors: [{ pointer: '#/consent', detail: 'must be true' }],
          },
        ),
        action: act,
        form,
      };
    }
    const validate = validators[act];
    if (form) dropOtherStepsFields(body, validate);
    if (!validate(body)) {
      return {
        reply: problem('invalid-request', `The ${act} request does not match the contract (GET /api/proposal).`, {
          errors: fieldErrors(validate.errors),
        }),
        action: act,
        form,
      };
    }
    // Cheap spam checks before the (costlier) sensitive-data scan.
    const request = body as unknown as SubmitRequest;
    if (act === 'submit') {
      // A filled-in spam trap (`website`) already failed the schema (maxLength 0).
      // A negative time means the browser's clock runs ahead of ours: no evidence of automation.
      const filledInMs = request.form_started_at === undefined ? undefined : Date.now() - request.form_started_at;
      if (filledInMs !== undefined && filledInMs >= 0 && filledInMs < MIN_FILL_MS) {
        return {
          reply: problem(
            'spam-suspected',
            'The form was submitted faster than a person can fill it. Review it and submit again.',
          ),
          action: act,
          form,
        };
      }
    }
    const findings = await findSensitiveData(body);
    if (findings.length > 0) {
      return {
        reply: problem(
          'sensitive-data',
          'Remove credentials, secrets, card or ID numbers from the named fields; describe them instead. Nothing was stored.',
          {
            errors: findings.map((f) => ({ pointer: f.pointer, detail: `looks like ${f.label}; remove it` })),
          },
        ),
        action: act,
        form,
      };
    }
    if (act === 'guide') return { reply: json(200, guide(k, body as unknown as GuideRequest)), action: act, form };
    if (act === 'summarize')
      return { reply: json(200, summarize(k, body as unknown as SummarizeRequest)), action: act, form };

    // A plain HTML form cannot set headers: its key comes from a hidden field (held to the
    // header's rules), or else from the content itself, so resubmitting the same form is recognised.
    const formKey = parsed.formKey === undefined ? undefined : parseIdempotencyKey(parsed.formKey);
    const key = form
      ? {
          ok: true as const,
          key: formKey?.ok ? formKey.key : `form-${sha256Hex(raw.text.replace(/(^|&)form_started_at=\d*/g, ''))}`,
        }
      : (checkedKey ?? parseIdempotencyKey(null));
    if (!key.ok) return { reply: key.reply, action: act, form };
    return { reply: await submitProposal(request, key.key, submitDeps()), action: act, form };
  }

  return async function handle(req: Request): Promise<Response> {
    // A form post's reply page shows the form again with what was typed, so keep a copy to read.
    const copy =
      mediaTypeOf(req.headers.get('content-type')) === 'form' && req.method === 'POST' ? req.clone() : undefined;
    let routed: { reply: Reply; action?: ProposalAction; form: boolean };
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
    const { reply, action, form } = routed;
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
