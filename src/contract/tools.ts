/** The three proposal actions as tools, for WebMCP, the MCP endpoint and the agent documents: the contract's request schemas, named. */
import { ACTIONS, type ProposalAction } from './fields.ts';
import { requestSchemas, resultSchemas } from './contract.ts';
import { IDEMPOTENCY_KEY_PATTERN } from './idempotency-rules.ts';
import type { Knowledge } from './knowledge.ts';

export const PROPOSAL_TOOLS = {
  guide: {
    name: 'request_guidance',
    title: 'Ask for guidance',
    description:
      'Get non-binding guidance on which capability and engagement model fit a question. Needs no contact details; nothing about the person is stored (a question no capability answers is counted by its topic words).',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  summarize: {
    name: 'review_proposal_request',
    title: 'Review a proposal request',
    description:
      'Show an overview of a proposal request and what is still missing, for the person to review. Nothing is stored or sent.',
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  submit: {
    name: 'submit_proposal_request',
    title: 'Submit a proposal request',
    description:
      "Send the reviewed proposal request. Only with the person's explicit consent to the consent text; retries with the same draft are never stored twice.",
    // Stores and delivers (not read-only), replaces nothing (not destructive), and the same
    // idempotency key with the same arguments never stores a second request (idempotent).
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  },
} as const satisfies Record<ProposalAction, { name: string; title: string; description: string; annotations: object }>;

/** The submit tool's argument for what the HTTP API takes as the Idempotency-Key header (same rules). */
export const IDEMPOTENCY_KEY_ARGUMENT = 'idempotency_key';

export function actionOfTool(name: string): ProposalAction | undefined {
  return ACTIONS.find((action) => PROPOSAL_TOOLS[action].name === name);
}

type JsonSchema = { properties: Record<string, unknown>; required: readonly string[]; [key: string]: unknown };

/** A request schema without the named fields (`action`: the tool's name selects it). */
function without(schema: JsonSchema, fields: readonly string[]): JsonSchema {
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([f]) => !fields.includes(f)));
  return { ...schema, properties, required: schema.required.filter((f) => !fields.includes(f)) };
}

/** The tools as MCP's tools/list describes them. */
export function mcpTools(k: Knowledge) {
  const requests = requestSchemas(k);
  const results = resultSchemas();
  return ACTIONS.map((action) => {
    const { name, title, description, annotations } = PROPOSAL_TOOLS[action];
    const inputSchema = without(requests[action], ['action']);
    if (action === 'submit') {
      inputSchema.properties[IDEMPOTENCY_KEY_ARGUMENT] = {
        type: 'string',
        pattern: IDEMPOTENCY_KEY_PATTERN,
        description:
          'One new value (a UUID) per proposal request, and the same value with the same arguments on every retry: a retry then returns the stored result and never submits twice.',
      };
      inputSchema.required = [...inputSchema.required, IDEMPOTENCY_KEY_ARGUMENT];
    }
    const outputSchema = results[action];
    return { name, title, description, inputSchema, outputSchema, annotations: { title, ...annotations } };
  });
}

/** Fields the workspace page sets itself (the step, the consent version, the spam checks): no tool parameter. */
const PAGE_SET_FIELDS = ['action', 'consent_version', 'website', 'form_started_at'];

export function webmcpTools(k: Knowledge) {
  const requests = requestSchemas(k);
  return ACTIONS.map((action) => {
    const { name, title, description, annotations } = PROPOSAL_TOOLS[action];
    const { $schema: _dialect, properties, required, ...rest } = without(requests[action], PAGE_SET_FIELDS);
    // `consent` is `const: true` in the contract; the type makes the tool's parameter explicit.
    if (properties['consent']) properties['consent'] = { type: 'boolean', ...properties['consent'] };
    return {
      action,
      name,
      title,
      description,
      inputSchema: { ...rest, properties, required },
      annotations: { readOnlyHint: annotations.readOnlyHint },
    };
  });
}

export type WebmcpTool = ReturnType<typeof webmcpTools>[number];

/** The `_meta` key of a result that replays a stored submit (the HTTP API's Idempotent-Replayed: true). */
export const REPLAYED_META = 'io.kestrelcloud/idempotent-replayed';
