/**
 * `/.well-known/ai-catalog.json` (Agentic Resource Discovery 1.0): what an agent can use here —
 * the proposal skill and the MCP server's card. Entries use the media types ARD registers, so the
 * conformance tester reports no warning; the other agent documents (contract, OpenAPI,
 * capabilities, llms.txt) are named in the skill's metadata.
 */
import type { Knowledge } from '../../contract/knowledge.ts';
import type { SiteData } from '../content/entry-schema.ts';
import { absolute, base } from '../pages/urls.ts';
import { PROPOSAL_SKILL_NAME, proposalSkill, skillMdPath } from './agent-skills.ts';
import { DOCUMENT_PATHS } from '../../contract/paths.ts';
import { mcpDescription, mcpServerInfo, SERVER_CARD_MEDIA_TYPE } from '../../proposal/mcp/server-info.ts';
import { PROPOSAL_TOOLS } from '../../proposal/tools.ts';

export const ARD_SPEC_VERSION = '1.0';
/** ARD's media type for a SKILL.md. */
export const SKILL_MEDIA_TYPE = 'text/markdown; profile="urn:air:agent-skills"';

export function aiCatalog(k: Knowledge, site: SiteData) {
  const skill = proposalSkill(k);
  const name = k.partner.name;
  return {
    specVersion: ARD_SPEC_VERSION,
    host: { displayName: name, documentationUrl: k.urls.agents },
    entries: [
      {
        // urn:air:<publisher>:<namespace>:<name>; the publisher is the site's host name.
        identifier: `urn:air:${base.hostname}:skills:${PROPOSAL_SKILL_NAME}`,
        displayName: `Request a proposal from ${name}`,
        type: SKILL_MEDIA_TYPE,
        url: absolute(skillMdPath(skill.name)),
        description: skill.description,
        tags: ['proposal', 'consulting', k.partner.cloud_provider.toLowerCase(), ...k.capabilities.map((c) => c.id)],
        capabilities: ['guide', 'summarize', 'submit'],
        representativeQueries: [
          `Request a proposal from ${name}`,
          `Find ${k.partner.described_as} for a project on ${k.partner.cloud_provider}`,
          `Get guidance on ${k.capabilities[0]?.name ?? 'a cloud project'} from ${name}`,
        ],
        updatedAt: `${site.last_updated}T00:00:00Z`,
        metadata: {
          mcp_server_card: absolute(DOCUMENT_PATHS.mcpServerCard),
          proposal_api: k.urls.proposal_api,
          proposal_contract: k.urls.proposal_api,
          openapi: absolute(DOCUMENT_PATHS.openapi),
          api_catalog: absolute(DOCUMENT_PATHS.apiCatalog),
          capabilities_document: k.urls.capabilities,
          llms_txt: absolute(DOCUMENT_PATHS.llmsTxt),
          agent_skills_index: absolute(DOCUMENT_PATHS.agentSkillsIndex),
        },
      },
      {
        identifier: `urn:air:${base.hostname}:mcp:${mcpServerInfo(k).name}`,
        displayName: mcpServerInfo(k).title,
        type: SERVER_CARD_MEDIA_TYPE,
        url: absolute(DOCUMENT_PATHS.mcpServerCard),
        description: `${mcpDescription(k)} MCP over Streamable HTTP at ${k.urls.mcp}; tools: ${Object.values(
          PROPOSAL_TOOLS,
        )
          .map((t) => t.name)
          .join(', ')}.`,
        tags: ['mcp', 'proposal', 'consulting', k.partner.cloud_provider.toLowerCase()],
        capabilities: Object.values(PROPOSAL_TOOLS).map((t) => t.name),
        representativeQueries: [`Connect to ${name} over MCP`, `Submit a proposal request to ${name} from a chat app`],
        updatedAt: `${site.last_updated}T00:00:00Z`,
        metadata: { mcp_endpoint: k.urls.mcp, documentation: k.urls.agents },
      },
    ],
  };
}
