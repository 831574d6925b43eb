/** The MCP server's own facts, for `server/discover`, `initialize`, the server cards and the catalogs; and its JSON-RPC refusals. */
import { CONTRACT_VERSION } from './contract.ts';
import type { Knowledge } from './knowledge.ts';
import { PROPOSAL_TOOLS } from './tools.ts';

/** Newest first: 2026-07-28 (server/discover) and the 2025-era ones (initialize offers the first of them). */
export const PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export const LEGACY_PROTOCOL_VERSIONS = PROTOCOL_VERSIONS.filter((v) => v < '2026-07-28');

/** What the server offers: tools, their list fixed by the deploy. The cards publish the same. */
export const MCP_CAPABILITIES = { tools: { listChanged: false } };

/** The name is the partner's name as a lower-case slug. */
export function mcpServerInfo(k: Knowledge) {
  const slug = k.partner.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''); // prettier-ignore
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
    `${t.guide.name} gives non-binding guidance (nothing about the person stored); ${t.summarize.name} shows an overview of a request and what is missing (nothing stored or sent); ${t.submit.name} sends it.`,
    `Submit only after the person agreed to this consent text (version ${k.consent.version}), shown word for word: "${k.consent.text}"`,
    `Give ${t.submit.name} one new idempotency_key argument (a UUID) per request and the same key with the same arguments on every retry.`,
    `Claim the request was received only when status is "received", and an email only when confirmation_email is "sent".`,
    `Never include credentials, secrets, card or ID numbers. Documentation: ${k.urls.agents}.`,
  ].join(' ');
}

/** JSON-RPC 2.0 as the MCP door writes its own refusals, with the SDK's codes (-32000: the transport's). */
export const rpcError = (status: number, code: number, message: string, id: string | number | null = null) =>
  Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status });

/** What /mcp allows: no GET (no event stream), no DELETE (no session). */
export const MCP_ALLOW = 'POST, OPTIONS';

/** The 405 of GET and DELETE, from the function and from the CDN's file (netlify.toml) alike. */
export const METHOD_NOT_ALLOWED = {
  jsonrpc: '2.0',
  id: null,
  error: {
    code: -32000,
    message: 'Method not allowed: POST JSON-RPC messages; this stateless server offers no event stream and no session.',
  },
} as const;
