/** OpenAPI 3.1 description of the three operations, embedding the contract's own request schemas. */
import type { Knowledge } from './knowledge.ts';
import { CONTRACT_VERSION, IDEMPOTENCY_RETENTION_HOURS, requestSchemas, STATUS_MEANINGS, EMAIL_MEANINGS } from '../proposal/contract.ts';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../proposal/submit/idempotency-key.ts';
import { PROBLEM_TYPES } from '../proposal/http.ts';

/** OpenAPI components carry no `$schema` or `$id` of their own; the document's dialect applies. */
function component<T extends { $schema?: string; $id?: string }>(schema: T): Omit<T, '$schema' | '$id'> {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/** `capabilitiesSchema` is embedded so the description is self-contained; it is also published on its own. */
export function buildOpenApi(k: Knowledge, capabilitiesSchema: { $schema?: string; $id?: string }, contractUrl: string) {
  const schemas = requestSchemas(k);
  const problemStatuses = [...new Set(Object.values(PROBLEM_TYPES).map((p) => p.status))].sort();
  const problemsOf = (status: number) =>
    Object.entries(PROBLEM_TYPES)
      .filter(([, p]) => p.status === status)
      .map(([id]) => id)
      .join(', ');
  return {
    openapi: '3.1.0',
    info: {
      title: `${k.partner.name} information and proposal intake`,
      version: CONTRACT_VERSION,
      description: `Machine-readable facts about ${k.partner.name}, ${k.partner.described_as} (not ${k.partner.cloud_provider_full_name}), and its proposal intake. Content rules: ${k.agent_guidance.join(' ')}`,
      contact: { email: k.partner.email, url: k.urls.agents },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: k.urls.home.replace(/\/$/, '') }],
    paths: {
      '/api/capabilities': {
        get: {
          operationId: 'getCapabilities',
          summary: 'The capabilities document',
          responses: {
            '200': {
              description: 'The capabilities document.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/CapabilitiesDocument' } } },
            },
          },
        },
      },
      '/api/proposal': {
        get: {
          operationId: 'getProposalContract',
          summary: 'The current proposal contract: actions, request schemas, examples, limits',
          externalDocs: { url: contractUrl },
          responses: { '200': { description: 'The contract.', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
        post: {
          operationId: 'postProposal',
          summary: 'Guide, summarize or submit a proposal request',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: `Required for action "submit": 1-${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters, reused on retries. Kept ${IDEMPOTENCY_RETENTION_HOURS} hours.`,
              // Two more for the optional double quotes.
              schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH + 2 },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  oneOf: [
                    { $ref: '#/components/schemas/GuideRequest' },
                    { $ref: '#/components/schemas/SummarizeRequest' },
                    { $ref: '#/components/schemas/SubmitRequest' },
                  ],
                  discriminator: {
                    propertyName: 'action',
                    mapping: {
                      guide: '#/components/schemas/GuideRequest',
                      summarize: '#/components/schemas/SummarizeRequest',
                      submit: '#/components/schemas/SubmitRequest',
                    },
                  },
                },
              },
              'application/x-www-form-urlencoded': {
                schema: { type: 'object', description: 'The same fields as form data; the reply is an HTML page.' },
              },
            },
          },
          responses: {
            '200': { description: 'Guidance (guide) or an overview (summarize).', content: { 'application/json': { schema: { type: 'object' } } } },
            '201': {
              description: `Submit: ${STATUS_MEANINGS.received} confirmation_email: ${Object.entries(EMAIL_MEANINGS).map(([v, m]) => `"${v}": ${m}`).join(' ')}`,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/SubmitResult' } } },
            },
            '202': {
              description: `Submit: ${STATUS_MEANINGS.pending}`,
              headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds before retrying.' } },
              content: { 'application/json': { schema: { $ref: '#/components/schemas/SubmitResult' } } },
            },
            ...Object.fromEntries(problemStatuses.map((s) => [String(s), problemResponse(`Problem types: ${problemsOf(s)}.`)])),
          },
        },
      },
    },
    components: {
      schemas: {
        CapabilitiesDocument: component(capabilitiesSchema),
        GuideRequest: component(schemas.guide),
        SummarizeRequest: component(schemas.summarize),
        SubmitRequest: component(schemas.submit),
        SubmitResult: {
          type: 'object',
          required: ['status', 'confirmation_email', 'request_id'],
          properties: {
            status: { enum: ['received', 'pending'] },
            confirmation_email: { enum: Object.keys(EMAIL_MEANINGS) },
            request_id: { type: 'string' },
            received_at: { type: 'string', format: 'date-time' },
          },
        },
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'detail'],
          properties: {
            type: { type: 'string', format: 'uri' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
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
