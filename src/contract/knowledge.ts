/** The facts the function needs, built from the content (lib/agents/agent-documents.ts) and shipped as JSON. */
import type { DataHandling } from './data-handling.ts';
import type { AudienceId, CapabilityId, EngagementModelId } from './ids.ts';

export interface Knowledge {
  partner: {
    name: string;
    type: string;
    /** `type` with its article, e.g. "an independent cloud consulting and delivery partner". */
    described_as: string;
    email: string;
    cloud_provider: string;
    cloud_provider_full_name: string;
    /** When a prospect hears back ("within one business day"), and who signs the confirmation email. */
    reply_time?: string;
    signatory?: { name: string; role: string };
  };
  urls: {
    home: string;
    proposal_page: string;
    proposal_api: string;
    /** The MCP endpoint (Streamable HTTP) of the same function. */
    mcp: string;
    agents: string;
    capabilities: string;
    openapi: string;
    privacy: string;
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
