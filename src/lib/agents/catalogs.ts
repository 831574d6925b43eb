/**
 * The two catalogs of what agents can use here. `/.well-known/api-catalog` (RFC 9727): one linkset
 * entry per API, MCP included. `/.well-known/ai-catalog.json` (Agentic Resource Discovery 1.0): the
 * proposal skill and the MCP server's card, with the media types ARD registers so its conformance
 * tester warns of nothing; the other agent documents are named in the skill's metadata.
 */
import type { Knowledge } from '../../contract/knowledge.ts';
import type { SiteData } from '../content/entry-schema.ts';
import { absolute, base } from '../pages/urls.ts';
import { proposalSkill, skillMdPath, TOOL_NAMES } from './agent-skills.ts';
import { DOCUMENT_PATHS, PAGE_PATHS } from '../../contract/paths.ts';
import { mcpServerInfo } from '../../contract/mcp-server.ts';
import { mcpDescription, SERVER_CARD_MEDIA_TYPE } from './mcp-server.ts';

export function apiCatalog() {
  const described = {
    'service-desc': [{ href: absolute(DOCUMENT_PATHS.openapi), type: 'application/openapi+json' }],
    'service-doc': [{ href: absolute(PAGE_PATHS.agents), type: 'text/html' }],
  };
  return {
    linkset: [
      {
        anchor: absolute(DOCUMENT_PATHS.capabilities),
        ...described,
        describedby: [{ href: absolute(DOCUMENT_PATHS.capabilitiesSchema), type: 'application/schema+json' }],
      },
      {
        anchor: absolute(DOCUMENT_PATHS.proposalApi),
        ...described,
        // GET of the endpoint itself is the contract: schemas, limits, examples.
        'service-meta': [{ href: absolute(DOCUMENT_PATHS.proposalApi), type: 'application/json' }],
      },
      {
        // The same actions as MCP tools; the server card describes the endpoint.
        anchor: absolute(DOCUMENT_PATHS.mcp),
        'service-desc': [{ href: absolute(DOCUMENT_PATHS.mcpServerCard), type: SERVER_CARD_MEDIA_TYPE }],
        'service-doc': [{ href: `${absolute(PAGE_PATHS.agents)}#mcp`, type: 'text/html' }],
      },
    ],
  };
}

export function aiCatalog(k: Knowledge, site: SiteData) {
  const skill = proposalSkill(k);
  const mcp = mcpServerInfo(k);
  const name = k.partner.name;
  const provider = k.partner.cloud_provider;
  const updatedAt = `${site.last_updated}T00:00:00Z`;
  return {
    specVersion: '1.0',
    host: { displayName: name, documentationUrl: k.urls.agents },
    entries: [
      {
        // urn:air:<publisher>:<namespace>:<name>; the publisher is the site's host name.
        identifier: `urn:air:${base.hostname}:skills:${skill.name}`,
        displayName: `Request a proposal from ${name}`,
        type: 'text/markdown; profile="urn:air:agent-skills"',
        url: absolute(skillMdPath(skill.name)),
        description: skill.description,
        tags: ['proposal', 'consulting', provider.toLowerCase(), ...k.capabilities.map((c) => c.id)],
        capabilities: ['guide', 'summarize', 'submit'],
        representativeQueries: [
          `Request a proposal from ${name}`,
          `Find ${k.partner.described_as} for a project on ${provider}`,
          `Get guidance on ${k.capabilities[0]?.name ?? 'a cloud project'} from ${name}`,
        ],
        updatedAt,
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
        identifier: `urn:air:${base.hostname}:mcp:${mcp.name}`,
        displayName: mcp.title,
        type: SERVER_CARD_MEDIA_TYPE,
        url: absolute(DOCUMENT_PATHS.mcpServerCard),
        description: `${mcpDescription(k)} MCP over Streamable HTTP at ${k.urls.mcp}; tools: ${TOOL_NAMES.join(', ')}.`,
        tags: ['mcp', 'proposal', 'consulting', provider.toLowerCase()],
        capabilities: TOOL_NAMES,
        representativeQueries: [`Connect to ${name} over MCP`, `Submit a proposal request to ${name} from a chat app`],
        updatedAt,
        metadata: { mcp_endpoint: k.urls.mcp, documentation: k.urls.agents },
      },
    ],
  };
}
