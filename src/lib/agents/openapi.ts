/** OpenAPI 3.1 description of the three operations, embedding the contract's own request and result schemas. */
import { CONFIRMATION_EMAIL_MEANINGS, STATUS_MEANINGS } from '../../contract/submit-replies.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import { CONTRACT_VERSION, RATE_LIMIT, requestSchemas, resultSchemas } from '../../contract/contract.ts';
import {
  IDEMPOTENCY_KEY_PATTERN,
  IDEMPOTENCY_RETENTION_HOURS,
  MAX_IDEMPOTENCY_KEY_LENGTH,
} from '../../contract/idempotency-rules.ts';
import { PROBLEM_TYPES, problemMeaning } from '../../contract/http.ts';
import { DOCUMENT_PATHS } from '../../contract/paths.ts';
import { partnerWithAside } from '../../contract/partner-phrase.ts';

const RATE_LIMITED_STATUS = PROBLEM_TYPES['rate-limited'].status;
const STORE_UNAVAILABLE_STATUS = PROBLEM_TYPES['store-unavailable'].status;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const requestName = (action: string) => `${action[0]?.toUpperCase()}${action.slice(1)}Request`;

/** OpenAPI components carry no `$schema` or `$id` of their own; the document's dialect applies. */
const component = <T extends { $schema?: string; $id?: string }>({ $schema: _dialect, $id: _id, ...rest }: T) => rest;

/** A form post, or a request preferring text/html, is answered with an HTML page of the same status. */
const HTML_REPLY = { 'text/html': { schema: { type: 'string' } } };
const SUBMIT_RESULT = { 'application/json': { schema: ref('SubmitResult') }, ...HTML_REPLY };

/** The platform enforces the function's rate limit before any of our code runs. */
const RATE_LIMITED = {
  description: `Too many requests: the platform's rate limit (${RATE_LIMIT.requests_per_window} per ${RATE_LIMIT.window_seconds} s) answered before the function; no body is promised.`,
};

const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying with the same Idempotency-Key and body.',
    schema: { type: 'integer', minimum: 0 },
  },
};

/** A submit's stored reply, sent again (a received, failed or held request alike). */
const REPLAYED = {
  'Idempotent-Replayed': {
    description: 'Present ("true") when this is the stored reply to an earlier request with the same key and body.',
    schema: { const: 'true' },
  },
};

/** A static document's GET: its one success, and the host's own answer for anything else. */
const staticGet = (
  operationId: string,
  summary: string,
  ok: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  operationId,
  summary,
  ...extra,
  responses: {
    '200': ok,
    '4XX': { description: 'Answered by the static host (e.g. 404 Not Found), not by this API; no body is promised.' },
  },
});

/** `capabilitiesSchema` is embedded so the description is self-contained; it is also published on its own. */
export function buildOpenApi(k: Knowledge, capabilitiesSchema: { $schema?: string; $id?: string }) {
  const schemas = requestSchemas(k);
  const results = resultSchemas();
  const actions = Object.keys(schemas);
  // Integer keys iterate in ascending order, so the responses come out sorted by status.
  const problemsByStatus = Object.groupBy(Object.entries(PROBLEM_TYPES), ([, p]) => p.status);
  return {
    openapi: '3.1.0',
    info: {
      title: `${k.partner.name} information and proposal intake`,
      version: CONTRACT_VERSION,
      description: `Machine-readable facts about ${partnerWithAside(k.partner)}, and its proposal intake. Content rules: ${k.agent_guidance.join(' ')}`,
      contact: { email: k.partner.email, url: k.urls.agents },
      // The API and its documents are the partner's own; the rules for using them are on /agents.
      license: {
        name: `Proprietary: ${k.partner.name}; terms of use for agents on the agents page`,
        url: `${k.urls.agents}#rules`,
      },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: k.urls.home.replace(/\/$/, '') }],
    // Every operation is public: no credentials exist, and none may be sent (spec part 5).
    security: [],
    paths: {
      [DOCUMENT_PATHS.capabilities]: {
        get: staticGet('getCapabilities', 'The capabilities document', {
          description: 'The capabilities document.',
          content: { 'application/json': { schema: ref('CapabilitiesDocument') } },
        }),
      },
      [DOCUMENT_PATHS.proposalApi]: {
        get: staticGet(
          'getProposalContract',
          'The current proposal contract: actions, request schemas, examples, limits',
          { description: 'The contract.', content: { 'application/json': { schema: { type: 'object' } } } },
          { externalDocs: { url: k.urls.proposal_api } },
        ),
        options: {
          operationId: 'preflightProposal',
          summary: 'CORS preflight',
          responses: {
            '204': {
              description: 'Any origin may POST JSON with an Idempotency-Key.',
              headers: {
                'Access-Control-Allow-Origin': { schema: { const: '*' } },
                'Access-Control-Allow-Methods': { schema: { type: 'string' } },
                'Access-Control-Allow-Headers': { schema: { type: 'string' } },
              },
            },
            [String(RATE_LIMITED_STATUS)]: RATE_LIMITED,
          },
        },
        post: {
          operationId: 'postProposal',
          summary: 'Guide, summarize or submit a proposal request',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              // OpenAPI cannot make a header depend on a body field: it is optional for guide and
              // summarize, and a submit without it is answered 400 missing-idempotency-key.
              required: false,
              description: `Needed for action "submit" (without it: 400, problem type missing-idempotency-key); guide and summarize do not need it. When sent, it is checked on every action (400 invalid-idempotency-key). 1-${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters without spaces or double quotes, bare or in one pair of double quotes; a UUID is a good choice. Send the same key with the same body on every retry; keys are kept ${IDEMPOTENCY_RETENTION_HOURS} hours.`,
              schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  oneOf: actions.map((action) => ref(requestName(action))),
                  discriminator: {
                    propertyName: 'action',
                    mapping: Object.fromEntries(actions.map((action) => [action, ref(requestName(action)).$ref])),
                  },
                },
              },
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  description: 'The proposal workspace form: the same fields as form data; the reply is an HTML page.',
                },
              },
            },
          },
          responses: {
            '200': {
              description:
                "Guidance (guide), an overview (summarize), what a confirmation link names (check_link: valid, used or expired), or the person's answer recorded (confirm_request, deny_request).",
              content: {
                'application/json': {
                  schema: {
                    oneOf: ['GuideResult', 'SummarizeResult', 'LinkCheckResult', 'ConsentAnswerResult'].map(ref),
                  },
                },
                ...HTML_REPLY,
              },
            },
            '201': {
              description: `Submit: ${STATUS_MEANINGS.received} confirmation_email: ${Object.entries(
                CONFIRMATION_EMAIL_MEANINGS,
              )
                .map(([v, m]) => `"${v}": ${m}`)
                .join(' ')}`,
              headers: REPLAYED,
              content: SUBMIT_RESULT,
            },
            '202': {
              description: `Submit, status pending: ${STATUS_MEANINGS.pending} Status failed: ${STATUS_MEANINGS.failed} Status awaiting_confirmation: ${STATUS_MEANINGS.awaiting_confirmation}`,
              headers: { ...RETRY_AFTER, ...REPLAYED },
              content: SUBMIT_RESULT,
            },
            ...Object.fromEntries(
              Object.entries(problemsByStatus)
                .filter(([status]) => Number(status) !== RATE_LIMITED_STATUS)
                .map(([status, types = []]) => {
                  const unavailable = Number(status) === STORE_UNAVAILABLE_STATUS;
                  return [
                    status,
                    {
                      description: `Problem types: ${types.map(([id]) => id).join(', ')}.${unavailable ? ` ${problemMeaning('store-unavailable')}` : ''}`,
                      ...(unavailable || status === '409' ? { headers: RETRY_AFTER } : {}),
                      content: { 'application/problem+json': { schema: ref('Problem') }, ...HTML_REPLY },
                    },
                  ];
                }),
            ),
            [String(RATE_LIMITED_STATUS)]: RATE_LIMITED,
          },
        },
      },
    },
    components: {
      schemas: {
        CapabilitiesDocument: component(capabilitiesSchema),
        ...Object.fromEntries(
          Object.entries(schemas).map(([action, schema]) => [requestName(action), component(schema)]),
        ),
        GuideResult: component(results.guide),
        SummarizeResult: component(results.summarize),
        LinkCheckResult: component(results.check_link),
        ConsentAnswerResult: component(results.consent_answer),
        SubmitResult: component(results.submit),
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail'],
          properties: {
            type: { type: 'string', format: 'uri' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            retry_after_seconds: {
              type: 'integer',
              minimum: 1,
              description:
                'When a retry is useful (409, 503): the same delay as the Retry-After header, on every channel.',
            },
            request_id: {
              type: 'string',
              description:
                'On 409 and 503, when known: the request the idempotency key stands for; a retry with the same key continues it.',
            },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['pointer', 'detail'],
                properties: { pointer: { type: 'string' }, detail: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}
