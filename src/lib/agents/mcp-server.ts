/** What the site publishes about its MCP server: the server card, and the texts of the catalogs, llms.txt, /agents and SKILL.md. */
import type { Knowledge } from '../../contract/knowledge.ts';
import {
  LEGACY_PROTOCOL_VERSIONS,
  MCP_CAPABILITIES,
  mcpServerInfo,
  PROTOCOL_VERSIONS,
} from '../../contract/mcp-server.ts';
export { MCP_CAPABILITIES } from '../../contract/mcp-server.ts';

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

/**
 * What every published description of the server says, from the server's own facts
 * (src/contract/mcp-server.ts): the published name is reverse-DNS of the host, then the slug.
 */
function mcpServerFacts(k: Knowledge) {
  const info = mcpServerInfo(k);
  const namespace = new URL(k.urls.home).hostname.split('.').reverse().join('.');
  return { ...info, publishedName: `${namespace}/${info.name}`, description: mcpDescription(k), endpoint: k.urls.mcp };
}

/** The server card (SEP-2127 draft), at /mcp/server-card and in the AI catalog. */
export function mcpServerCard(k: Knowledge) {
  const f = mcpServerFacts(k);
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: f.publishedName,
    version: f.version,
    title: f.title,
    description: f.description,
    websiteUrl: f.websiteUrl,
    remotes: [{ type: MCP_TRANSPORT, url: f.endpoint, supportedProtocolVersions: [...PROTOCOL_VERSIONS] }],
  };
}

/** The official MCP Registry's server.json schema (vendored in tests/fixtures/schemas). */
export const REGISTRY_SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/**
 * The entry of the official MCP Registry, committed as server.json at the repository's root (what
 * `mcp-publisher publish` sends): a remote server, with the card's name, version and endpoint. A
 * build test keeps the file equal to this; it is published from the canonical build's facts.
 */
export function registryServerJson(k: Knowledge) {
  const f = mcpServerFacts(k);
  return {
    $schema: REGISTRY_SERVER_SCHEMA,
    name: f.publishedName,
    title: f.title,
    description: f.description,
    version: f.version,
    websiteUrl: f.websiteUrl,
    remotes: [{ type: MCP_TRANSPORT, url: f.endpoint }],
  };
}

/** The build-time variable that holds the partner's registry key (base64 of the 32-byte Ed25519 public key). */
export const REGISTRY_PUBLIC_KEY_ENV = 'MCP_REGISTRY_PUBLIC_KEY';

/**
 * The body of /.well-known/mcp-registry-auth, by which the MCP Registry verifies over HTTP that the
 * publisher holds this domain (`mcp-publisher login http`): `v=MCPv1; k=ed25519; p=<public key>`.
 * Undefined when no key is configured, so nothing is served; a value that is not an Ed25519 public
 * key fails the build, since the registry would only answer a failed login.
 */
export function registryAuthRecord(env: Record<string, string | undefined>): string | undefined {
  const key = env[REGISTRY_PUBLIC_KEY_ENV]?.trim();
  if (!key) return undefined;
  const bytes = Buffer.from(key, 'base64');
  if (bytes.length !== 32 || bytes.toString('base64') !== key) {
    throw new Error(
      `${REGISTRY_PUBLIC_KEY_ENV} is not an Ed25519 public key in base64 (32 bytes, 44 characters: what ` +
        '`openssl pkey -in key.pem -pubout -outform DER | tail -c 32 | base64` prints); see docs/operating.md, "Listing in the MCP Registry"',
    );
  }
  return `v=MCPv1; k=ed25519; p=${key}\n`;
}

/**
 * The card in its earlier shape (SEP-1649), which scanners still read at
 * /.well-known/mcp/server-card.json: `serverInfo` as the server itself answers it, the transport
 * and its endpoint, the capabilities, and that no authentication is asked. No published schema
 * exists for it, so it names none.
 */
export function earlierMcpServerCard(k: Knowledge) {
  const f = mcpServerFacts(k);
  return {
    serverInfo: { name: f.name, title: f.title, version: f.version },
    description: f.description,
    websiteUrl: f.websiteUrl,
    transport: { type: MCP_TRANSPORT, endpoint: f.endpoint },
    capabilities: MCP_CAPABILITIES,
    authentication: { required: false },
  };
}
