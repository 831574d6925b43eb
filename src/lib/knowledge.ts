/**
 * The facts the proposal function needs at run time, derived from the site model at build time
 * and shipped to the function as JSON (the function never carries facts of its own).
 */
import type { AudienceId, CapabilityId, EngagementModelId } from '../schemas/ids.ts';
import type { SiteModel } from './content.ts';
import { partnerPhrase } from './partner-phrase.ts';
import { dataHandlingFromEnv, type DataHandling } from '../proposal/data-handling.ts';

export interface Knowledge {
  partner: {
    name: string;
    type: string;
    /** `type` with its article, e.g. "an independent cloud consulting and delivery partner". */
    described_as: string;
    email: string;
    cloud_provider: string;
    cloud_provider_full_name: string;
  };
  urls: {
    home: string;
    proposal_page: string;
    proposal_api: string;
    agents: string;
    capabilities: string;
    openapi: string;
  };
  capabilities: {
    id: CapabilityId;
    name: string;
    summary: string;
    includes: string[];
    keywords: string[];
    url: string;
  }[];
  audiences: { id: AudienceId; title: string; needs: string[]; company_sizes: string[] }[];
  engagement_models: {
    id: EngagementModelId;
    name: string;
    description: string;
    best_when: string;
    suggested_for: CapabilityId[];
  }[];
  program_support: {
    summary: string;
    startup_support: string[];
    partner_program_support: string[];
    disclaimer: string;
  };
  useful_intake_fields: string[];
  agent_guidance: string[];
  consent: { text: string; version: string };
  data_handling: DataHandling;
}

/** `env` is the build's environment: RETENTION_DAYS there is what the pages and contract state. */
export function buildKnowledge(
  model: SiteModel,
  absolute: (path: string) => string,
  env: Record<string, string | undefined> = process.env,
): Knowledge {
  const site = model.site.data;
  return {
    partner: {
      name: site.name,
      type: site.type,
      described_as: partnerPhrase(site.type),
      email: site.email,
      cloud_provider: site.cloud_provider,
      cloud_provider_full_name: site.cloud_provider_full_name,
    },
    urls: {
      home: absolute('/'),
      proposal_page: absolute('/proposal'),
      proposal_api: absolute('/api/proposal'),
      agents: absolute('/agents'),
      capabilities: absolute('/api/capabilities'),
      openapi: absolute('/openapi.json'),
    },
    capabilities: model.capabilities.map(({ data: c }) => ({
      id: c.id,
      name: c.name,
      summary: c.summary,
      includes: c.includes,
      keywords: c.keywords.map((k) => k.toLowerCase()),
      url: `${absolute('/services')}#${c.id}`,
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
    data_handling: dataHandlingFromEnv(site, env),
  };
}
