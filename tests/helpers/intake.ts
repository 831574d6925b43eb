/**
 * An instance of the function as its entry builds one (actions/pipeline.ts createIntake), for unit
 * tests: a small knowledge of the shape the build writes, the request schemas compiled by ajv as the
 * build compiles them (src/integrations/build-outputs.ts), the environment as a map, and overrides
 * (a store, clocks). Nothing is built or read from `.generated/`.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { requestSchemas } from '../../src/contract/contract.ts';
import { dataHandlingFromEnv } from '../../src/contract/data-handling.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import type { Validators } from '../../src/contract/requests.ts';
import { createIntake, type Intake, type Invocation } from '../../src/proposal/actions/pipeline.ts';
import { CONSENT, envOf } from './submit-fixtures.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, formats: string[]) => Ajv2020;
const SITE = 'https://kestrel.example';

export const KNOWLEDGE: Knowledge = {
  partner: {
    name: 'Kestrel Cloud',
    type: 'independent cloud consulting and delivery partner',
    described_as: 'an independent cloud consulting and delivery partner',
    email: 'hello@kestrel.example',
    cloud_provider: 'AWS',
    cloud_provider_full_name: 'Amazon Web Services',
  },
  urls: {
    home: `${SITE}/`,
    proposal_page: `${SITE}/proposal`,
    proposal_api: `${SITE}/api/proposal`,
    mcp: `${SITE}/mcp`,
    agents: `${SITE}/agents`,
    capabilities: `${SITE}/services`,
    openapi: `${SITE}/openapi.json`,
    privacy: `${SITE}/privacy`,
  },
  capabilities: [
    {
      id: 'cloud-engineering',
      name: 'Cloud engineering',
      summary: 'Landing zones and platforms.',
      includes: ['Landing zones'],
      keywords: ['migrate', 'landing zone'],
      url: `${SITE}/services#cloud-engineering`,
    },
  ],
  audiences: [
    { id: 'startups', title: 'Startups', needs: ['Ship fast'], company_sizes: ['1-10', '11-50'] },
    {
      id: 'established-businesses',
      title: 'Established businesses',
      needs: ['Modernise'],
      company_sizes: ['51-200', '201-1000', '1001+'],
    },
  ],
  engagement_models: [
    {
      id: 'defined-project',
      name: 'Defined project',
      description: 'A scoped project.',
      best_when: 'The goal is clear.',
      suggested_for: ['cloud-engineering'],
    },
  ],
  program_support: {
    summary: 'Programs may help.',
    startup_support: ['Credits'],
    partner_program_support: ['Funding'],
    disclaimer: 'The provider decides.',
  },
  useful_intake_fields: ['business_outcome'],
  agent_guidance: ['Ask before sending.'],
  consent: CONSENT,
  data_handling: dataHandlingFromEnv({ name: 'Kestrel Cloud', email: 'hello@kestrel.example' }, {}),
};

/** The request schemas of `k`, compiled as the build compiles them. */
export function testValidators(k: Knowledge = KNOWLEDGE): Validators {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv, ['email']);
  const schemas = requestSchemas(k);
  const compile = <A extends keyof Validators>(action: A) => ajv.compile(schemas[action]) as Validators[A];
  return {
    guide: compile('guide'),
    summarize: compile('summarize'),
    submit: compile('submit'),
    confirm_request: compile('confirm_request'),
    deny_request: compile('deny_request'),
    check_link: compile('check_link'),
  };
}

/** One instance, as the entry builds it on its first invocation: the configuration read once from `env`. */
export const testIntake = (env: Record<string, string> = {}, overrides: Partial<Intake> = {}): Intake =>
  createIntake(KNOWLEDGE, testValidators(), envOf(env), overrides);

/** One invocation of `request`, starting now. */
export const invocationOf = (request: Request, more: Partial<Invocation> = {}): Invocation => ({
  request,
  startedAt: performance.now(),
  limitMs: 60_000,
  ...more,
});

/** The MCP SDK as the door loads it (the build bundles this same module). */
export const loadMcpSdk = () => import('../../src/proposal/doors/mcp-sdk.ts');
