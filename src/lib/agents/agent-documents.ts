/**
 * The JSON documents agents fetch and the function's knowledge, each built once from a site
 * model (./published.ts hands them the checked one); the capabilities document is validated
 * against its published schema.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
// CommonJS whose `module.exports` is the plugin itself (with `.default` pointing back at it).
import addFormats from 'ajv-formats';
import type { SiteModel } from '../content/model.ts';
import { oncePer } from '../memo.ts';
import { absolute } from '../pages/urls.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import { AGENT_RESOURCE_PATHS, capabilitiesDocumentSchema } from '../../contract/capabilities-document.schema.ts';
import { buildContract, EXAMPLE_REQUESTS, workflowTexts } from '../../contract/contract.ts';
import { dataHandlingFromEnv } from '../../contract/data-handling.ts';
import { partnerPhrase } from '../../contract/partner-phrase.ts';
import { DOCUMENT_PATHS, PAGE_PATHS } from '../../contract/paths.ts';
import { guide } from '../../proposal/actions/guide.ts';
import { summarize } from '../../proposal/actions/summarize.ts';
import { httpWords } from '../../contract/http.ts';
import { exampleSubmitReply } from '../../contract/submit-replies.ts';

/** The named fields of an entry's data, in that order. */
const pick = <T extends object, K extends keyof T>(data: T, keys: readonly K[]) =>
  Object.fromEntries(keys.map((key) => [key, data[key]])) as Pick<T, K>;

const PROGRAM_SUPPORT_FIELDS = ['summary', 'startup_support', 'partner_program_support', 'disclaimer'] as const;

export function capabilitiesSchemaOf(model: SiteModel) {
  return capabilitiesDocumentSchema(model.site.data.brand_slug, absolute(DOCUMENT_PATHS.capabilitiesSchema));
}

/** The capabilities document (spec 2.1–2.10), mapped field by field from the site model. */
function buildCapabilitiesDocument(model: SiteModel) {
  const site = model.site.data;
  const evidence = model.evidence.data;
  return {
    schema_version: site.schema_version,
    canonical_url: absolute('/'),
    organization: pick(site, ['name', 'type', 'summary', 'cloud_partner_profile', 'delivery_regions']),
    positioning: { primary: site.positioning, [`why_${site.brand_slug}`]: site.reasons },
    audiences: model.audiences.map(({ data }) => pick(data, ['id', 'needs', 'outcomes'])),
    capabilities: model.capabilities.map(({ data }) => pick(data, ['id', 'name', 'includes'])),
    cloud_program_support: pick(model.programSupport.data, PROGRAM_SUPPORT_FIELDS),
    engagement_models: model.engagementModels.map(({ data }) => pick(data, ['id', 'description'])),
    evidence: {
      // The spec's count of the competencies that content names one by one.
      cloud_partner_highlights: {
        competencies: String(evidence.competencies.length),
        ...pick(evidence, ['certifications', 'customer_launches', 'source']),
      },
      selected_client_experience: evidence.selected_client_experience,
    },
    agent_guidance: site.agent_guidance,
    contact: {
      proposal_url: absolute(PAGE_PATHS.proposal),
      proposal_api: absolute(DOCUMENT_PATHS.proposalApi),
      email: site.email,
      useful_intake_fields: site.useful_intake_fields,
    },
    agent_resources: Object.fromEntries(
      Object.entries(AGENT_RESOURCE_PATHS).map(([key, path]) => [key, absolute(path)]),
    ),
    proposal_workflow: workflowTexts(absolute),
    last_updated: site.last_updated,
  };
}

/** The capabilities document; the build fails, naming every mismatch, if it does not match its published schema. */
export function capabilitiesDocumentOf(model: SiteModel) {
  const doc = buildCapabilitiesDocument(model);
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  const validate = ajv.compile(capabilitiesSchemaOf(model));
  if (!validate(doc)) {
    const errors = (validate.errors ?? []).map(
      (e) => `  ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
    throw new Error(`${DOCUMENT_PATHS.capabilities} does not match its JSON Schema:\n${errors.join('\n')}`);
  }
  return doc;
}

/** The function's facts from the site model; RETENTION_DAYS in the build's environment is what pages and contract state. */
function buildKnowledge(model: SiteModel): Knowledge {
  const site = model.site.data;
  return {
    partner: {
      ...pick(site, ['name', 'type']),
      described_as: partnerPhrase(site.type),
      ...pick(site, ['email', 'cloud_provider', 'cloud_provider_full_name']),
    },
    urls: {
      home: absolute(PAGE_PATHS.home),
      proposal_page: absolute(PAGE_PATHS.proposal),
      proposal_api: absolute(DOCUMENT_PATHS.proposalApi),
      mcp: absolute(DOCUMENT_PATHS.mcp),
      agents: absolute(PAGE_PATHS.agents),
      capabilities: absolute(DOCUMENT_PATHS.capabilities),
      openapi: absolute(DOCUMENT_PATHS.openapi),
      privacy: absolute(PAGE_PATHS.privacy),
    },
    capabilities: model.capabilities.map(({ data: c }) => ({
      ...pick(c, ['id', 'name', 'summary', 'includes']),
      keywords: c.keywords.map((k) => k.toLowerCase()),
      url: `${absolute(PAGE_PATHS.services)}#${c.id}`,
    })),
    audiences: model.audiences.map(({ data }) => pick(data, ['id', 'title', 'needs', 'company_sizes'])),
    engagement_models: model.engagementModels.map(({ data }) =>
      pick(data, ['id', 'name', 'description', 'best_when', 'suggested_for']),
    ),
    program_support: pick(model.programSupport.data, PROGRAM_SUPPORT_FIELDS),
    useful_intake_fields: site.useful_intake_fields,
    agent_guidance: site.agent_guidance,
    consent: { text: site.consent_text, version: site.consent_version },
    data_handling: dataHandlingFromEnv(site, process.env, absolute(PAGE_PATHS.privacy)),
  };
}

/** The function's knowledge of a model, built once; the pages ask for it synchronously. */
export const knowledgeOf = oncePer(buildKnowledge);

export const contractOf = oncePer((k: Knowledge) =>
  buildContract(k, {
    guide: guide(k, EXAMPLE_REQUESTS.guide, httpWords(k.urls.proposal_api)),
    summarize: summarize(k, EXAMPLE_REQUESTS.summarize, httpWords(k.urls.proposal_api)),
    submit: exampleSubmitReply(k),
  }),
);
