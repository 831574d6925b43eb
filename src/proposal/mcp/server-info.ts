/** The MCP server's facts: for `server/discover` and `initialize`, the server card, the catalogs, llms.txt, /agents and SKILL.md. */
import { CONTRACT_VERSION } from '../../contract/contract.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import { PROPOSAL_TOOLS } from '../tools.ts';

/**
 * The revisions served, newest first: 2026-07-28 (stateless; server/discover) and the 2025-era
 * ones through the SDK's stateless legacy path, whose initialize offers the first 2025-era entry.
 * The SDK serves what this lists (./server.ts); a test keeps every entry one the SDK knows.
 */
export const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** The revisions that connect with `initialize`; the newer ones start with `server/discover`. */
export const LEGACY_PROTOCOL_VERSIONS = PROTOCOL_VERSIONS.filter((v) => v < '2026-07-28');

export const MCP_TRANSPORT = 'streamable-http';

/** The media type of a server card (SEP-2127), as the AI catalog's tester registers it. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** The name is the partner's name as a lower-case slug. */
export function mcpServerInfo(k: Knowledge) {
  const slug = k.partner.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return {
    name: `${slug}-proposals`,
    title: `${k.partner.name} proposal intake`,
    version: CONTRACT_VERSION,
    websiteUrl: k.urls.agents,
  };
}

export function mcpInstructions(k: Knowledge): string {
  const t = PROPOSAL_TOOLS;
  return [
    `Proposal intake of ${k.partner.name}, ${k.partner.described_as}.`,
    `${t.guide.name} gives non-binding guidance (nothing stored); ${t.summarize.name} shows an overview of a request and what is missing (nothing stored or sent); ${t.submit.name} sends it.`,
    `Submit only after the person agreed to this consent text (version ${k.consent.version}), shown word for word: "${k.consent.text}"`,
    `Give ${t.submit.name} one new idempotency_key argument (a UUID) per request and the same key with the same arguments on every retry.`,
    `Claim the request was received only when status is "received", and an email only when confirmation_email is "sent".`,
    `Never include credentials, secrets, card or ID numbers. Documentation: ${k.urls.agents}.`,
  ].join(' ');
}

/** How a client of either era connects: for /agents, SKILL.md and llms.txt alike. */
export function mcpRevisionsText(): string {
  const [modern] = PROTOCOL_VERSIONS;
  return (
    `Protocol revisions ${PROTOCOL_VERSIONS.join(', ')}. A ${modern} client starts with server/discover and sends its protocol version, client info and capabilities in each request's _meta (the official TypeScript SDK v2 pins it with versionNegotiation { mode: { pin: "${modern}" } }); ` +
    `a client of an earlier revision starts with initialize (offered ${LEGACY_PROTOCOL_VERSIONS[0]}). ` +
    'Stateless: no session, one JSON reply per POST, no batches; GET answers 405.'
  );
}

/** One line on what the server does (a server card allows 100 characters). */
export function mcpDescription(k: Knowledge): string {
  return `Ask ${k.partner.name} for guidance, review a proposal request and submit it with consent.`;
}

/** `/.well-known/mcp/server-card.json` (SEP-2127 draft); the name is reverse-DNS of the host and the slug. */
export function mcpServerCard(k: Knowledge) {
  const info = mcpServerInfo(k);
  const namespace = new URL(k.urls.home).hostname.split('.').reverse().join('.');
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
    name: `${namespace}/${info.name}`,
    version: info.version,
    title: info.title,
    description: mcpDescription(k),
    websiteUrl: info.websiteUrl,
    remotes: [{ type: MCP_TRANSPORT, url: k.urls.mcp, supportedProtocolVersions: [...PROTOCOL_VERSIONS] }],
  };
}
