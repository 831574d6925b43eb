/** The capabilities document (spec 2.1–2.10), mapped field by field from the site model. */
import type { SiteModel } from '../content/content.ts';
import { workflowTexts } from '../../contract/contract.ts';
import { DOCUMENT_PATHS, PAGE_PATHS } from '../../contract/paths.ts';
import { AGENT_RESOURCE_PATHS } from '../../contract/capabilities-document.schema.ts';

export function buildCapabilitiesDocument(model: SiteModel, absolute: (path: string) => string) {
  const site = model.site.data;
  const program = model.programSupport.data;
  const evidence = model.evidence.data;
  return {
    schema_version: site.schema_version,
    canonical_url: absolute('/'),
    organization: {
      name: site.name,
      type: site.type,
      summary: site.summary,
      cloud_partner_profile: site.cloud_partner_profile,
      delivery_regions: site.delivery_regions,
    },
    positioning: { primary: site.positioning, [`why_${site.brand_slug}`]: site.reasons },
    audiences: model.audiences.map(({ data }) => ({ id: data.id, needs: data.needs, outcomes: data.outcomes })),
    capabilities: model.capabilities.map(({ data }) => ({ id: data.id, name: data.name, includes: data.includes })),
    cloud_program_support: {
      summary: program.summary,
      startup_support: program.startup_support,
      partner_program_support: program.partner_program_support,
      disclaimer: program.disclaimer,
    },
    engagement_models: model.engagementModels.map(({ data }) => ({ id: data.id, description: data.description })),
    evidence: {
      cloud_partner_highlights: {
        competencies: evidence.competencies,
        certifications: evidence.certifications,
        customer_launches: evidence.customer_launches,
        source: evidence.source,
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
    ) as Record<keyof typeof AGENT_RESOURCE_PATHS, string>,
    proposal_workflow: workflowTexts(absolute),
    last_updated: site.last_updated,
  };
}

export type CapabilitiesDocument = ReturnType<typeof buildCapabilitiesDocument>;
