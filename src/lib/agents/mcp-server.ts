/** What the site publishes about its MCP server: the server card, and the texts of the catalogs, llms.txt, /agents and SKILL.md. */
import type { Knowledge } from '../../contract/knowledge.ts';
import { LEGACY_PROTOCOL_VERSIONS, mcpServerInfo, PROTOCOL_VERSIONS } from '../../proposal/mcp/server-info.ts';

export const MCP_TRANSPORT = 'streamable-http';

/** The media type of a server card (SEP-2127), as the AI catalog's tester registers it. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** The Server Card schema (SEP-2127): versioned by its `vN` segment, the only `$schema` a card may name. */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** How a client of either era connects: for /agents, SKILL.md and llms.txt alike. */
export function mcpRevisionsText(): string {
  const [modern] = PROTOCOL_VERSIONS;
  return (
    `Protocol revisions ${PROTOCOL_VERSIONS.join(', ')}. A ${modern} client starts with server/discover and sends its protocol version, client info and capabilities in each request's _meta (the official TypeScript SDK v2 pins it with versionNegotiation { mode: { pin: "${modern}" } }); ` +
    `a client of an earlier revision starts with initialize (offered ${LEGACY_PROTOCOL_VERSIONS[0]}). ` +
    'Stateless (nothing kept between requests): an earlier-revision client sends back the Mcp-Session-Id of the initialize reply, its own declaration signed by the server; no batches; GET answers 405.'
  );
}

/** One line on what the server does (a server card allows 100 characters). */
export function mcpDescription(k: Knowledge): string {
  return `Ask ${k.partner.name} for guidance, review a proposal request and submit it with consent.`;
}

/** The server card (SEP-2127 draft); the name is reverse-DNS of the host and the slug. */
export function mcpServerCard(k: Knowledge) {
  const info = mcpServerInfo(k);
  const namespace = new URL(k.urls.home).hostname.split('.').reverse().join('.');
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `${namespace}/${info.name}`,
    version: info.version,
    title: info.title,
    description: mcpDescription(k),
    websiteUrl: info.websiteUrl,
    remotes: [{ type: MCP_TRANSPORT, url: k.urls.mcp, supportedProtocolVersions: [...PROTOCOL_VERSIONS] }],
  };
}
