/** The function's replies: a plain value object so domain code stays free of the platform. */
import { STORE_RETRY_AFTER_SECONDS } from './idempotency-rules.ts';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

/** `pointer`: a JSON Pointer in URI-fragment form, e.g. "#/email". */
export interface FieldError {
  pointer: string;
  detail: string;
}

/** A problem's `type` URI is its row's anchor on the agents page (/agents#problem-types). */
export const problemAnchor = (type: string): string => `problem-${type}`;

/** The `type` URI of a problem, e.g. `https://…/agents#problem-invalid-request`. */
export const problemTypeUri = (agentsPageUrl: string, type: string): string =>
  `${agentsPageUrl}#${problemAnchor(type)}`;

/** Whether a problem's `type` URI names this type, wherever the site is served. */
export const isProblemType = (uri: string | undefined, type: string): boolean =>
  uri?.endsWith(`#${problemAnchor(type)}`) === true;

/** Problem types, documented on /agents#problem-types; the URI fragment is the id. */
export const PROBLEM_TYPES = {
  'malformed-json': { status: 400, title: 'The request body is not valid JSON' },
  'missing-idempotency-key': { status: 400, title: 'An idempotency key is required' },
  'invalid-idempotency-key': { status: 400, title: 'The idempotency key is not valid' },
  'cross-site-request': {
    status: 403,
    title: 'A browser request from another site is refused',
    advice:
      'A browser sent this POST from a page of another site (Sec-Fetch-Site cross-site or same-site, or an Origin that is not this site). Submit from the proposal workspace of this site, or from a client that is not a web page of another site (an agent, curl, an MCP client): requests without fetch metadata or Origin are unaffected.',
  },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'idempotency-key-in-use': { status: 409, title: 'A request with this idempotency key is still being processed' },
  'payload-too-large': { status: 413, title: 'The request body is too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'invalid-request': { status: 422, title: 'The request does not match the contract' },
  'unknown-action': { status: 422, title: 'Unknown or missing action' },
  'sensitive-data': { status: 422, title: 'The request contains data that must not be sent through a public form' },
  'consent-required': { status: 422, title: 'Consent is required to submit a proposal request' },
  'idempotency-key-reused': { status: 422, title: 'This idempotency key was used with a different request' },
  'spam-suspected': { status: 422, title: 'The request looks automated' },
  'confirmation-link-invalid': {
    status: 422,
    title: 'The confirmation link is not valid',
    advice:
      'The token does not match the request it names (mistyped, cut off, or the request no longer exists). Nothing was changed. Open the link from the confirmation email exactly as it was sent.',
  },
  'confirmation-link-used': {
    status: 409,
    title: 'The confirmation link was already used',
    advice: 'Each link of the confirmation email works once; the answer already given stands. Nothing was changed.',
  },
  'confirmation-link-expired': {
    status: 410,
    title: 'The confirmation link has expired',
    advice:
      '"Yes, this was me" works for 24 hours, "Not me" for 30 days. Nothing was changed; to have the request deleted, write to the partner with its request id.',
  },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'internal-error': { status: 500, title: 'Something went wrong on our side' },
  'store-unavailable': {
    status: 503,
    title: 'The request store is unavailable',
    advice: `The store did not answer, so whether the request is stored is not known. A request_id in the problem names the request this key stands for (stored or about to be); without one, nothing was stored. Retry with the same idempotency key and request after the problem's retry_after_seconds (${STORE_RETRY_AFTER_SECONDS}; over HTTP also the Retry-After header): the retry never creates a second request, and answers with the request's outcome. A reply with status "received" or "pending" always means the request is stored.`,
  },
} as const;
export type ProblemType = keyof typeof PROBLEM_TYPES;

/** A problem type's meaning as every document states it: its title, and what to do where that is not obvious. */
export function problemMeaning(type: ProblemType): string {
  const p: { title: string; advice?: string } = PROBLEM_TYPES[type];
  return p.advice === undefined ? p.title : `${p.title}. ${p.advice}`;
}

/** An RFC 9457 problem; `detail` never echoes values. `type` stays relative until withProblemBase resolves it. */
export function problem(
  type: ProblemType,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string>; [key: string]: unknown } = {},
): Reply {
  const { headers, ...members } = extra;
  const { status, title } = PROBLEM_TYPES[type];
  return {
    status,
    headers: { 'content-type': 'application/problem+json; charset=utf-8', ...headers },
    body: { type: problemTypeUri('', type), title, status, detail, ...members },
  };
}

/** The answer to a submit without consent; the developer page shows it as its example problem. */
export function consentRequired(): Reply {
  return problem(
    'consent-required',
    'A request is submitted only with the sender\'s consent: set "consent" to true after showing the consent text of the contract.',
    { errors: [{ pointer: '#/consent', detail: 'must be true' }] },
  );
}

export function withProblemBase(reply: Reply, agentsPageUrl: string): Reply {
  const body = reply.body as { type?: unknown } | null;
  if (typeof body?.type !== 'string' || !body.type.startsWith('#')) return reply;
  return { ...reply, body: { ...body, type: new URL(body.type, agentsPageUrl).href } };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body };
}

/** How the HTTP API names what the actions' texts point at: an action body at the endpoint (`api`), the key's header. */
export const httpWords = (api: string) => ({
  action: (action: string) => `{"action":"${action}"} at ${api}`,
  key: 'the Idempotency-Key header',
  schemas: 'GET /api/proposal',
});

export function readEnv(name: string): string | undefined {
  const netlify = (globalThis as { Netlify?: { env: { get(key: string): string | undefined } } }).Netlify;
  const value = netlify?.env.get(name) ?? process.env[name];
  return value === '' ? undefined : value;
}
