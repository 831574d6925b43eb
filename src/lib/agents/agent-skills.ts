/**
 * Agent Skills (agentskills.io) at `/.well-known/agent-skills/` (Discovery RFC v0.2.0): one skill,
 * "request a proposal", written from the content and the contract, and an index naming it by type,
 * URL and the sha256 digest of the exact bytes served.
 */
import { CONFIRMATION_EMAIL_MEANINGS, STATUS_MEANINGS } from '../../contract/submit-replies.ts';
import { createHash } from 'node:crypto';
import type { Knowledge } from '../../contract/knowledge.ts';
import { CONTRACT_VERSION, EXAMPLE_REQUESTS, requestSchemas, workflowTexts } from '../../contract/contract.ts';
import { IDEMPOTENCY_RETENTION_HOURS } from '../../contract/idempotency-rules.ts';
import { PROBLEM_TYPES, problemMeaning, problemTypeUri, type ProblemType } from '../../contract/http.ts';
import { absolute } from '../pages/urls.ts';
import { DOCUMENT_PATHS } from '../../contract/paths.ts';
import { partnerStatement, partnerWithAside } from '../../contract/partner-phrase.ts';
import { IDEMPOTENCY_KEY_ARGUMENT, PROPOSAL_TOOLS } from '../../contract/tools.ts';
import { signedRequestsText } from '../../contract/web-bot-auth.ts';
import { mcpRevisionsText } from './mcp-server.ts';

/** 1-64 lower-case letters, digits and single hyphens; also the directory name. */
const SKILL_NAME = 'request-a-proposal';

/** The MCP tools' names, as every agent document lists them. */
export const TOOL_NAMES = Object.values(PROPOSAL_TOOLS).map((t) => t.name);

/** URL path of a skill's SKILL.md. */
export const skillMdPath = (skill: string) => `${DOCUMENT_PATHS.agentSkills}/${skill}/SKILL.md`;

/** `/.well-known/agent-skills/index.json`: one `skill-md` entry per skill. */
export function skillsIndex(skills: ReturnType<typeof proposalSkill>[]) {
  return {
    $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
    skills: skills.map((skill) => ({
      name: skill.name,
      type: 'skill-md' as const,
      description: skill.description,
      url: absolute(skillMdPath(skill.name)),
      digest: `sha256:${createHash('sha256').update(skill.skillMd).digest('hex')}`,
    })),
  };
}

const bullets = (items: readonly string[]) => items.map((i) => `- ${i}`).join('\n');
const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;

/** Fields only the workspace form fills in (a spam trap and its timing); an agent leaves them out. */
const WORKSPACE_ONLY_FIELDS = ['website', 'form_started_at'];

/** The fields of one action's request schema as a markdown list: name, required or not, description, allowed values. */
function fieldList(schema: {
  properties: Record<string, { description?: string; enum?: readonly unknown[] }>;
  required: readonly string[];
}): string {
  return Object.entries(schema.properties)
    .filter(([name]) => name !== 'action' && !WORKSPACE_ONLY_FIELDS.includes(name))
    .map(([name, p]) => {
      const described = p.description ?? '';
      const unlisted = p.enum?.some((v) => !described.includes(`"${String(v)}"`));
      const values = p.enum && unlisted ? ` One of: ${p.enum.map((v) => `\`${String(v)}\``).join(', ')}.` : '';
      return `- \`${name}\` (${schema.required.includes(name) ? 'required' : 'optional'}): ${described}${values}`;
    })
    .join('\n');
}

/**
 * The "request a proposal" skill, written from the knowledge the function runs on and the contract:
 * its description (what it does and when to use it, at most 1024 characters) and the SKILL.md
 * served at skillMdPath(name), whose exact bytes the index's digest is of.
 */
export function proposalSkill(k: Knowledge) {
  const name = k.partner.name;
  const schemas = requestSchemas(k);
  const flow = workflowTexts(absolute);
  const api = k.urls.proposal_api;
  const description =
    `Request a proposal from ${partnerWithAside(k.partner)}: ` +
    `get non-binding guidance, review a summary, then submit a consented request to its customer-relationship system. ` +
    `Use when a person wants ${name} to scope, build or run work on ${k.partner.cloud_provider}, or asks how to engage ${name}.`;
  const body = [
    `---\nname: ${SKILL_NAME}\ndescription: ${JSON.stringify(description)}\n---`,
    `# Request a proposal from ${name}`,
    `${partnerStatement(k.partner)}. This skill takes a person from a question to a request they consented to, through the proposal API at ${api} (contract version ${CONTRACT_VERSION}).`,
    '## When to use it',
    bullets([
      `The person wants help from ${name} with ${k.capabilities.map((c) => c.name).join('; ')}.`,
      `The person asks how to work with ${name}, what an engagement would look like, or for a quote or proposal.`,
      `Not for ${k.partner.cloud_provider} account, billing or program questions: ${k.partner.cloud_provider} decides those.`,
    ]),
    '## Rules that bind everything you say',
    bullets(k.agent_guidance),
    '## Steps',
    `1. **Guide** (optional, nothing stored). ${flow.guide}`,
    json(EXAMPLE_REQUESTS.guide),
    `2. **Gather and summarize** (nothing stored or sent). Ask the person for what is missing, then: ${flow.summarize} Show them the overview and let them correct it.`,
    json(EXAMPLE_REQUESTS.summarize),
    `3. **Consent.** Show the person this text word for word and submit only after they agree to it (version ${k.consent.version}):\n\n> ${k.consent.text}\n\nIf they ask what happens to their data, point them to the privacy notice: ${k.urls.privacy} (the contract's \`data_handling\` states the same facts).`,
    `4. **Submit.** ${flow.submit} Send a new key (a UUID) for each new request and the same key with the same body on every retry; keys are kept ${IDEMPOTENCY_RETENTION_HOURS} hours.`,
    json(EXAMPLE_REQUESTS.submit),
    '## What the answer means',
    [
      `- \`status: "received"\` (HTTP 201): ${STATUS_MEANINGS.received}`,
      `- \`status: "pending"\` (HTTP 202, with \`Retry-After\`): ${STATUS_MEANINGS.pending}`,
      `- \`status: "failed"\` (HTTP 202): ${STATUS_MEANINGS.failed}`,
      `- HTTP 503, problem type \`store-unavailable\` (with \`Retry-After\`): ${problemMeaning('store-unavailable')}`,
      ...Object.entries(CONFIRMATION_EMAIL_MEANINGS).map(
        ([value, meaning]) => `- \`confirmation_email: "${value}"\`: ${meaning}`,
      ),
    ].join('\n'),
    `Tell the person exactly this much and no more: never say the request was accepted unless status is "received", never say an email was sent unless confirmation_email is "sent".`,
    '## Fields of a submit request',
    fieldList(schemas.submit),
    '## When something is refused',
    `Errors are \`application/problem+json\` (RFC 9457) with \`type\`, \`title\`, \`status\`, \`detail\` and, for fields, \`errors[]\` of \`{ pointer, detail }\`. Fix what the detail names and send again. Types:`,
    bullets(
      Object.entries(PROBLEM_TYPES).map(
        ([id, p]) =>
          `\`${id}\` (${p.status}): ${problemMeaning(id as ProblemType).replace(/\.?$/, '.')} ${problemTypeUri(k.urls.agents, id as ProblemType)}`,
      ),
    ),
    '## Signing your requests (optional)',
    ...signedRequestsText(),
    '## Over MCP',
    `The same steps are MCP tools at ${k.urls.mcp} (Streamable HTTP; server card: ${absolute(DOCUMENT_PATHS.mcpServerCard)}): ${TOOL_NAMES.map((t) => `\`${t}\``).join(', ')}. Their arguments are the fields above without \`action\`; submit takes the Idempotency-Key as \`${IDEMPOTENCY_KEY_ARGUMENT}\`. A refused call returns \`isError\` with the same problem details. ${mcpRevisionsText()}`,
    '## References',
    bullets([
      `Contract with schemas, limits and examples: GET ${api}`,
      `OpenAPI: ${absolute(DOCUMENT_PATHS.openapi)}`,
      `For agents: ${k.urls.agents}`,
      `Facts about ${name}: ${k.urls.capabilities}`,
      `Prefer a person? ${k.partner.email} or ${k.urls.proposal_page}`,
    ]),
  ].join('\n\n');
  return { name: SKILL_NAME, description, skillMd: `${body}\n` };
}
