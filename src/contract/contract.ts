/** The proposal contract, written once: served at GET /api/proposal, in /openapi.json, compiled into the validators. */
import {
  CONSENT_ANSWER_MEANINGS,
  CONSENT_LINK_HOURS,
  CONSENT_METHODS,
  CONSENT_VOUCHERS,
  consentDigest,
  LINK_STATUS_MEANINGS,
} from './consent.ts';
import {
  COMPANY_SIZES,
  CONTACT_FIELDS,
  GUIDANCE_FIELDS,
  MAX_BODY_BYTES,
  MAX_SHORT_LENGTH,
  MAX_TEXT_LENGTH,
  NOT_SURE,
  REQUIRED_INTAKE_FIELDS,
  type IntakeField,
  type PrimaryNeed,
} from './fields.ts';
import { PROBLEM_TYPES, problemMeaning, problemTypeUri, type ProblemType } from './http.ts';
import { CONFIRMATION_EMAIL_MEANINGS, STATUS_MEANINGS } from './submit-replies.ts';
import { IDEMPOTENCY_RETENTION_HOURS, MAX_IDEMPOTENCY_KEY_LENGTH } from './idempotency-rules.ts';
import type { Knowledge } from './knowledge.ts';
import { VISIBLE_LINE_PATTERN, VISIBLE_TEXT_PATTERN } from './text-patterns.ts';
import { CONSENT_PAGES, DOCUMENT_PATHS } from './paths.ts';
import type { CapabilityId, EngagementModelId } from './ids.ts';
import { partnerWithAside } from './partner-phrase.ts';

/** Version of the contract; change it when a request or response shape changes. */
export const CONTRACT_VERSION = '2026-11-01';
/** Mirrors `config.rateLimit` of the function (netlify/functions/proposal.mts); a test keeps them equal. */
export const RATE_LIMIT = { window_seconds: 60, requests_per_window: 30, aggregate_by: ['ip', 'domain'] } as const;

/** The `proposal_workflow` texts of the capabilities document (spec 2.10). */
export function workflowTexts(absolute: (path: string) => string) {
  const api = absolute(DOCUMENT_PATHS.proposalApi);
  return {
    schema: `GET ${api} returns the current contract: request schemas with required fields, examples, limits and error format for the guide, summarize and submit actions (OpenAPI: ${absolute(DOCUMENT_PATHS.openapi)}).`,
    guide: `POST ${api} with {"action":"guide"}, a question, industry, company_size and primary_need returns non-binding guidance. No contact details are needed and nothing about the sender is stored (a question no capability answers is counted by its topic words only).`,
    summarize: `POST ${api} with {"action":"summarize"} and the intake fields returns a reviewable overview, the recommended fields still missing and whether it is ready to submit. Nothing is stored or sent.`,
    submit: `POST ${api} with {"action":"submit"}, consent true, contact details and the intake fields, plus an Idempotency-Key header, sends the consented request to the partner's customer-relationship system. Retries reuse the same key and body.`,
    success_semantics: `status "received" means the customer-relationship system accepted the request; "pending" means it is stored and will be delivered without a retry (a retry with the same Idempotency-Key is safe and returns the outcome); "failed" means the partner's team follows up by hand. HTTP 503 (store-unavailable) means nothing was stored: ${PROBLEM_TYPES['store-unavailable'].advice} Claim an email was sent only when confirmation_email is "sent".`,
  };
}

/** The longest address SMTP allows (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

// `as const` throughout: the request types (./requests.ts) are read off these schemas' literal types.
const textField = (maxLength: number, pattern: string) => (description: string) =>
  ({ type: 'string', minLength: 1, maxLength, pattern, description }) as const;
const short = textField(MAX_SHORT_LENGTH, VISIBLE_LINE_PATTERN);
const long = textField(MAX_TEXT_LENGTH, VISIBLE_TEXT_PATTERN);

/** One action's request: `action` selects it, and nothing beyond `properties` is accepted. */
const requestObject = <A extends string, P extends object, R extends readonly string[]>(
  title: string,
  action: A,
  properties: P,
  required: R,
) =>
  ({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title,
    type: 'object',
    properties: { action: { const: action, description: 'Selects the action.' }, ...properties },
    required: ['action', ...required],
    additionalProperties: false,
  }) as const;

export function requestSchemas(k: Knowledge) {
  const capabilityIds: readonly CapabilityId[] = k.capabilities.map((c) => c.id);
  const modelIds: readonly EngagementModelId[] = k.engagement_models.map((m) => m.id);
  const primaryNeeds: readonly PrimaryNeed[] = [...capabilityIds, NOT_SURE];
  const guidance = {
    question: long('What you want to achieve or ask, in your own words.'),
    industry: short('Your industry, e.g. "fintech" or "healthcare".'),
    company_size: { type: 'string', enum: COMPANY_SIZES, description: 'Number of employees.' },
    primary_need: {
      type: 'string',
      enum: primaryNeeds,
      description: `The capability you need most: ${k.capabilities.map((c) => `"${c.id}" (${c.name})`).join(', ')}, or "${NOT_SURE}".`,
    },
  } as const;
  const intake = {
    business_outcome: long('The business outcome you want, e.g. "launch self-service onboarding in Q3".'),
    current_environment: long(
      'Current environment or product stage: what runs where today, or how far the product is.',
    ),
    blocker: long('The blocker or risk in the way.'),
    timeline: long('Target timeline, e.g. "pilot by March, production by June".'),
    constraints: long('Security, reliability, compliance, data or budget constraints.'),
    cloud_context: long('Known cloud-provider account team, startup program or funding context, if any.'),
    engagement_model: {
      type: 'string',
      enum: modelIds,
      description: `Desired engagement model: ${k.engagement_models.map((m) => `"${m.id}" (${m.name})`).join(', ')}.`,
    },
  } as const satisfies Record<IntakeField, unknown>;
  const contact = {
    name: short('Your name.'),
    email: {
      type: 'string',
      maxLength: MAX_EMAIL_LENGTH,
      format: 'email',
      description: 'Your work email address (an address only, without a display name); the confirmation is sent here.',
    },
    company: short('Your company.'),
    role: short('Your role (optional).'),
    phone: {
      type: 'string',
      maxLength: 40,
      pattern: '^\\+?[0-9][0-9 ().\\-/]{4,39}$',
      description: 'A phone number to reach you on (optional), with its country code.',
    },
  } as const;
  return {
    guide: requestObject('Guide request', 'guide', guidance, GUIDANCE_FIELDS),
    summarize: requestObject('Summarize request', 'summarize', { ...guidance, ...intake, ...contact }, []),
    submit: requestObject(
      'Submit request',
      'submit',
      {
        ...guidance,
        ...intake,
        ...contact,
        consent: {
          const: true,
          description: `Must be true: the sender agrees to this text (version ${k.consent.version}): "${k.consent.text}" The request is stored with a consent record: how it was given (sent by an agent over the API: agent_asserted, vouched for by the agent; ticked on the partner's form: site_form) until the person confirms it through the link in the confirmation email (email_link, first_party). The contract's consent.methods and consent.vouched_by list every value.`,
        },
        consent_version: short('Version of the consent text shown to the sender; defaults to the current version.'),
        website: {
          type: 'string',
          maxLength: 0,
          description: 'Leave out or empty (spam trap): anything in it is refused.',
        },
        form_started_at: {
          type: 'integer',
          minimum: 0,
          description: 'Workspace only: when the form was shown (ms since epoch).',
        },
      } as const,
      ['consent', ...CONTACT_FIELDS, ...REQUIRED_INTAKE_FIELDS] as const,
    ),
    ...consentAnswerSchemas(),
  };
}

/** The two answers of the confirmation email's page: the request and the token its link carried. */
function consentAnswerSchemas() {
  const answer = {
    request_id: {
      type: 'string',
      pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$',
      description: 'The request id the link names.',
    },
    token: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{43}$',
      description: 'The token the link carries (single use).',
    },
  } as const;
  const link = {
    ...answer,
    answer: {
      type: 'string',
      enum: ['confirm', 'deny'],
      description: 'Which of the two links: "Yes, this was me" (confirm) or "Not me" (deny).',
    },
  } as const;
  return {
    check_link: requestObject('Check link', 'check_link', link, ['request_id', 'token', 'answer'] as const),
    confirm_request: requestObject('Confirm request', 'confirm_request', answer, ['request_id', 'token'] as const),
    deny_request: requestObject('Deny request', 'deny_request', answer, ['request_id', 'token'] as const),
  };
}

export type RequestSchemas = ReturnType<typeof requestSchemas>;

const str = { type: 'string' };
const strings = { type: 'array', items: str };
const fieldRefs = {
  type: 'array',
  items: {
    type: 'object',
    required: ['field', 'label', 'pointer'],
    properties: { field: str, label: str, pointer: str },
  },
};

/** JSON Schemas of the successful results: the MCP tools' output schemas and the OpenAPI document's SubmitResult. */
export function resultSchemas() {
  const object = (title: string, required: string[], properties: Record<string, unknown>) => ({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title,
    type: 'object',
    required,
    properties,
  });
  return {
    guide: object(
      'Guide result',
      ['action', 'non_binding', 'notice', 'capabilities', 'engagement_model', 'cloud_program_context', 'next_steps'],
      {
        action: { const: 'guide' },
        non_binding: { const: true },
        notice: str,
        // anyOf rather than a type array: clients that map schemas to one type per field read it too.
        audience: { anyOf: [{ type: 'object' }, { type: 'null' }] },
        capabilities: {
          type: 'array',
          items: {
            type: 'object',
            required: ['id', 'name', 'why', 'url'],
            properties: { id: str, name: str, url: str },
          },
        },
        engagement_model: { anyOf: [{ type: 'object' }, { type: 'null' }] },
        alternatives: { type: 'array' },
        cloud_program_context: { type: 'object', required: ['summary', 'disclaimer'] },
        prepare: strings,
        next_steps: strings,
        proposal_workspace: str,
      },
    ),
    summarize: object(
      'Summarize result',
      ['action', 'submitted', 'overview', 'missing_fields', 'ready_to_submit', 'markdown'],
      {
        action: { const: 'summarize' },
        submitted: { const: false },
        overview: { type: 'object', required: ['intake', 'context', 'contact'] },
        missing_fields: fieldRefs,
        missing_contact_fields: fieldRefs,
        warnings: strings,
        ready_to_submit: { type: 'boolean' },
        markdown: str,
        next_step: str,
      },
    ),
    check_link: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      title: 'Link check result',
      oneOf: [
        {
          title: 'A link of a stored request, or of a draft confirmed before it is stored',
          type: 'object',
          required: ['status', 'company', 'received_at', 'choices'],
          properties: {
            status: {
              enum: Object.keys(LINK_STATUS_MEANINGS),
              description: 'valid, used or expired; see the contract.',
            },
            answered: { enum: ['confirm', 'deny'], description: 'The answer given, when the link was used.' },
            company: str,
            received_at: { type: 'string', format: 'date-time' },
            choices: { ...strings, description: "The site's names of the request's need and engagement model." },
            consent_text: {
              ...str,
              description: 'A draft confirmed before it is stored (an MCP client sent the person): the text agreed to.',
            },
          },
        },
        {
          title: 'A link of a request "Not me" erased: nothing of it is left to show',
          type: 'object',
          required: ['status', 'answered'],
          properties: { status: { const: 'used' }, answered: { const: 'deny' } },
          additionalProperties: false,
        },
      ],
    },
    consent_answer: object('Consent answer result', ['status', 'request_id', 'message'], {
      status: { enum: Object.keys(CONSENT_ANSWER_MEANINGS), description: 'confirmed or erased; see the contract.' },
      request_id: str,
      message: str,
    }),
    submit: object('Submit result', ['status', 'confirmation_email', 'request_id'], {
      status: {
        enum: Object.keys(STATUS_MEANINGS),
        description: 'received, pending, failed or awaiting_confirmation; see the contract.',
      },
      confirmation_email: { enum: Object.keys(CONFIRMATION_EMAIL_MEANINGS) },
      request_id: str,
      received_at: { type: 'string', format: 'date-time' },
      retry_after_seconds: { type: 'integer', minimum: 0 },
      message: str,
    }),
  };
}

/** The example request's intake, reviewed (summarize, with a field still missing) and then submitted. */
const EXAMPLE_INTAKE = {
  business_outcome: 'Cut average handle time by 20% with an AI assistant for agents.',
  current_environment: 'Amazon Connect in one region; CRM on premises.',
  blocker: 'No safe way to give the model customer context.',
  timeline: 'Pilot in 10 weeks.',
} as const;

/** Example requests: real inputs whose responses are computed at build time from the content. */
export const EXAMPLE_REQUESTS = {
  guide: {
    action: 'guide',
    question: 'We want to add a generative AI assistant to our contact center without exposing customer data.',
    industry: 'insurance',
    company_size: '201-1000',
    primary_need: 'genai-and-contact-center',
  },
  summarize: { action: 'summarize', ...EXAMPLE_INTAKE, engagement_model: 'defined-project' },
  submit: {
    action: 'submit',
    consent: true,
    name: 'Alex Doe',
    email: 'alex@example.com',
    company: 'Example Insurance',
    ...EXAMPLE_INTAKE,
    constraints: 'Customer data stays in the EU; SOC 2 controls apply.',
    engagement_model: 'defined-project',
  },
  // The shape of what a link of the confirmation email carries; only a real link's token is accepted.
  check_link: {
    action: 'check_link',
    request_id: '019ac0de-7e57-7a11-8b0c-5e11a5c0ffee',
    answer: 'confirm',
    token: 'yGm2Vb1qXW0m5f3o9dJkR8nT4sLzA7cE6pHuYiQwO2M',
  },
  confirm_request: {
    action: 'confirm_request',
    request_id: '019ac0de-7e57-7a11-8b0c-5e11a5c0ffee',
    token: 'yGm2Vb1qXW0m5f3o9dJkR8nT4sLzA7cE6pHuYiQwO2M',
  },
  deny_request: {
    action: 'deny_request',
    request_id: '019ac0de-7e57-7a11-8b0c-5e11a5c0ffee',
    token: 'Qz7wP2kLm9Xv4Bn1Cj8Hd5Fg3Ts6Ry0Ue2Io7Pa4Sd1',
  },
} as const;

export function buildContract(k: Knowledge, examples: { guide: unknown; summarize: unknown; submit: unknown }) {
  const schemas = requestSchemas(k);
  return {
    contract_version: CONTRACT_VERSION,
    description: `Proposal intake of ${partnerWithAside(k.partner)}. POST one JSON object whose "action" selects guide, summarize or submit.`,
    endpoint: {
      method: 'POST',
      url: k.urls.proposal_api,
      content_types: ['application/json', 'application/x-www-form-urlencoded'],
    },
    documentation: k.urls.agents,
    openapi: k.urls.openapi,
    limits: {
      max_body_bytes: MAX_BODY_BYTES,
      max_text_field_length: MAX_TEXT_LENGTH,
      max_short_field_length: MAX_SHORT_LENGTH,
      rate_limit: RATE_LIMIT,
    },
    content_rules: k.agent_guidance,
    sensitive_data:
      'Requests carrying credentials, secrets, private keys, access tokens, passwords, connection strings, payment card numbers or national ID numbers are refused (422, problem type sensitive-data) on every action. Describe them instead ("we use IAM roles"), never paste them.',
    idempotency: {
      header: 'Idempotency-Key',
      required_for: ['submit'],
      format: `A string of 1-${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, bare or in double quotes; a UUID is a good choice.`,
      rule: 'Send one new key per proposal request and the same key with the same body on every retry. Same key and body: the stored reply is replayed with Idempotent-Replayed: true. Same key, different body: 422. Same key while the first request is still running: 409 with Retry-After.',
      retention_hours: IDEMPOTENCY_RETENTION_HOURS,
    },
    consent: {
      text: k.consent.text,
      version: k.consent.version,
      digest: consentDigest(k.consent.text),
      record:
        "Each stored request keeps a consent record: given, the version and digest above, when, the channel, how (method) and who vouches for it (vouched_by); over MCP also the protocol revision and the client's declared name. It is sent to the CRM with the request.",
      methods: CONSENT_METHODS,
      vouched_by: CONSENT_VOUCHERS,
    },
    data_handling: k.data_handling,
    actions: {
      guide: {
        description:
          'Non-binding guidance tailored to the question: fitting capabilities, audience, engagement model, program context ("may qualify"), and the intake fields to prepare. No contact details; nothing stored.',
        request_schema: schemas.guide,
        example_request: EXAMPLE_REQUESTS.guide,
        example_response: { status: 200, body: examples.guide },
      },
      summarize: {
        description:
          'A reviewable overview of a proposal request (structured and as markdown), the recommended fields still missing, warnings and ready_to_submit. Nothing is stored or sent (submitted: false).',
        request_schema: schemas.summarize,
        example_request: EXAMPLE_REQUESTS.summarize,
        example_response: { status: 200, body: examples.summarize },
      },
      submit: {
        description:
          "Sends a consented request to the partner's customer-relationship system. Requires consent: true and an Idempotency-Key header. 201 when received, 202 when stored but pending (delivered later without a retry) or failed, 503 store-unavailable when nothing could be stored (retry with the same key after Retry-After).",
        request_schema: schemas.submit,
        required_headers: ['Idempotency-Key'],
        example_request: EXAMPLE_REQUESTS.submit,
        example_response: { status: 201, body: examples.submit },
        result: { status: STATUS_MEANINGS, confirmation_email: CONFIRMATION_EMAIL_MEANINGS },
      },
      check_link: {
        description: `What a link of the confirmation email names, for its page (${CONSENT_PAGES.confirm} and ${CONSENT_PAGES.deny}) to show before anything is pressed: the company and when the request arrived, the site's names of its choices, and whether the link is still valid, used (and with which answer) or expired; for a draft an MCP client sent the person to confirm before it is stored, also the consent text. A link of a request "Not me" erased says only that it was used to deny. Changes nothing. Not for agents: only the mailbox owner has the token.`,
        request_schema: schemas.check_link,
        example_request: EXAMPLE_REQUESTS.check_link,
        result: { status: LINK_STATUS_MEANINGS },
      },
      confirm_request: {
        description: `The person's "Yes, this was me" from the page the confirmation email links to (${CONSENT_PAGES.confirm} and ${CONSENT_PAGES.deny}): the request's consent becomes first_party (method email_link) and the CRM is sent an update of the same request. The token works once, for ${CONSENT_LINK_HOURS.confirm} hours. Not for agents: only the mailbox owner has the token.`,
        request_schema: schemas.confirm_request,
        example_request: EXAMPLE_REQUESTS.confirm_request,
        result: { status: CONSENT_ANSWER_MEANINGS },
      },
      deny_request: {
        description: `The person's "Not me" from the same page: the request is erased from the store, the CRM is asked to delete it and the sales team is told. It also withdraws a consent given with "Yes, this was me". The token works once, for ${CONSENT_LINK_HOURS.deny / 24} days.`,
        request_schema: schemas.deny_request,
        example_request: EXAMPLE_REQUESTS.deny_request,
        result: { status: CONSENT_ANSWER_MEANINGS },
      },
    },
    errors: {
      format:
        'application/problem+json (RFC 9457): type, title, status, detail, and errors[] of { pointer, detail } for field problems. Values you sent are never echoed.',
      types: Object.entries(PROBLEM_TYPES).map(([id, p]) => ({
        type: problemTypeUri(k.urls.agents, id as ProblemType),
        status: p.status,
        title: p.title,
        ...('advice' in p && { what_to_do: problemMeaning(id as ProblemType) }),
      })),
    },
  };
}

export type Contract = ReturnType<typeof buildContract>;
