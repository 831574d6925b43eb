/** Builds the function's Knowledge (src/contract/knowledge.ts) from the site model at build time. */
import type { Knowledge } from '../../contract/knowledge.ts';
import type { SiteModel } from '../content/content.ts';
import { partnerPhrase, type PartnerNames } from '../../contract/partner-phrase.ts';
import { DOCUMENT_PATHS, PAGE_PATHS } from '../../contract/paths.ts';
import { dataHandlingFromEnv } from '../../contract/data-handling.ts';

type SiteData = SiteModel['site']['data'];

/** The partner as sentences name it, from content/site.md. */
export function partnerNames(site: SiteData): PartnerNames {
  return {
    name: site.name,
    described_as: partnerPhrase(site.type),
    cloud_provider_full_name: site.cloud_provider_full_name,
  };
}

/** `env` is the build's environment: RETENTION_DAYS there is what the pages and contract state. */
export function buildKnowledge(
  model: SiteModel,
  absolute: (path: string) => string,
  env: Record<string, string | undefined> = process.env,
): Knowledge {
  const site = model.site.data;
  const names = partnerNames(site);
  return {
    partner: {
      name: names.name,
      type: site.type,
      described_as: names.described_as,
      email: site.email,
      cloud_provider: site.cloud_provider,
      cloud_provider_full_name: names.cloud_provider_full_name,
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
      id: c.id,
      name: c.name,
      summary: c.summary,
      includes: c.includes,
      keywords: c.keywords.map((k) => k.toLowerCase()),
      url: `${absolute(PAGE_PATHS.services)}#${c.id}`,
    })),
    audiences: model.audiences.map(({ data: a }) => ({
      id: a.id,
      title: a.title,
      needs: a.needs,
      company_sizes: a.company_sizes,
    })),
    engagement_models: model.engagementModels.map(({ data: m }) => ({
      id: m.id,
      name: m.name,
      description: m.description,
      best_when: m.best_when,
      suggested_for: m.suggested_for,
    })),
    program_support: {
      summary: model.programSupport.data.summary,
      startup_support: model.programSupport.data.startup_support,
      partner_program_support: model.programSupport.data.partner_program_support,
      disclaimer: model.programSupport.data.disclaimer,
    },
    useful_intake_fields: site.useful_intake_fields,
    agent_guidance: site.agent_guidance,
    consent: { text: site.consent_text, version: site.consent_version },
    data_handling: dataHandlingFromEnv(site, env, absolute(PAGE_PATHS.privacy)),
  };
}
