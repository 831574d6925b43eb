/**
 * How a request's consent was given and who vouches for it (GDPR Art. 7(1): the partner must be able
 * to show who consented, when, to what text and how). Published in the contract, stored with every
 * request, sent to the CRM and shown to sales.
 */
import { hash } from 'node:crypto';
import type { Channel } from './source.ts';

/** Each way consent reaches the site, and what it shows. */
export const CONSENT_METHODS = {
  site_form:
    "The consent box was ticked on the partner's own proposal page. Anyone can tick it in anyone's name, so it proves nothing about the mailbox until its owner confirms.",
  email_link:
    'The mailbox owner opened the link in the confirmation email and pressed "Yes, this was me" on the partner\'s own page.',
  url_page:
    "The person was sent by their MCP client to the partner's own confirmation page and confirmed there before anything was submitted.",
  mcp_form_elicitation:
    'The MCP host showed the person the consent text word for word and reported that they accepted it.',
  agent_asserted: 'The sender (an agent or a program) set "consent": true in the request; nobody else saw it.',
} as const;
export type ConsentMethod = keyof typeof CONSENT_METHODS;

/** Who vouches for the consent, strongest first. */
export const CONSENT_VOUCHERS = {
  first_party:
    "The partner itself: the click came from the mailbox owner, on the partner's own domain, reached through a link only that mailbox received.",
  mcp_host:
    "The person's MCP host, which says it showed the text and the person accepted; the partner cannot check it.",
  sender:
    "Whoever filled in the partner's form: the box was ticked on the partner's page, in a name nobody has checked yet.",
  agent: 'Only the agent or program that sent the request.',
} as const;
export type ConsentVoucher = keyof typeof CONSENT_VOUCHERS;

import { CONSENT_LINK_HOURS } from './consent-links.ts';

export { CONSENT_LINK_HOURS };
/** A grant (a draft confirmed before it is stored) serves one round trip: kept a day longer than its link and its key. */
export const GRANT_KEEP_HOURS = CONSENT_LINK_HOURS.confirm + 24;

/** Each `status` of a confirm_request or deny_request reply. */
export const CONSENT_ANSWER_MEANINGS = {
  confirmed: 'The person confirmed: the consent is now first_party (email_link), and the CRM is sent the update.',
  erased: 'The request was erased from the store; the CRM is asked to delete it and the sales team is told.',
} as const;
export type ConsentAnswerStatus = keyof typeof CONSENT_ANSWER_MEANINGS;

/** Each `status` of a check_link reply. */
export const LINK_STATUS_MEANINGS = {
  valid: 'The link can still be used: pressing its button records the answer.',
  used: 'An answer was already given (`answered` names it); the link changes nothing any more.',
  expired: 'The link is past its time; the request stays as it is.',
} as const;

/** `sha-256:<hex>` of the exact consent text the sender was shown: the one digest of it everywhere. */
export function consentDigest(text: string): string {
  return `sha-256:${hash('sha256', text)}`;
}

/** For an MCP request: the protocol revision of the connection and the client's declared name. */
export interface McpConsentContext {
  protocol_version?: string;
  client?: string;
}

/** A protocol revision as a client names it (`2026-07-28`), or undefined when it is not one. */
export function revisionName(value: unknown): string | undefined {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/** An MCP call's source and, without elicitation, its consent (the agent's word). */
export function mcpCaller(client: string | undefined, request?: { headers: Headers }, revision?: string) {
  return { source: { channel: 'mcp' as const, client }, consent: mcpAssertedConsent(client, request, revision) };
}

/**
 * An MCP call without elicitation: the agent's word, with the revision its MCP-Protocol-Version header
 * names (else `revision`, what its session negotiated) and the client's name.
 */
export function mcpAssertedConsent(
  client: string | undefined,
  request?: { headers: Headers },
  revision?: string,
): ConsentEvidence {
  const protocol = revisionName(request?.headers.get('mcp-protocol-version')) ?? revision;
  const mcp = {
    ...(protocol !== undefined && { protocol_version: protocol }),
    ...(client !== undefined && { client }),
  };
  return { ...assertedConsent('mcp'), mcp };
}

/** How consent was given, as the door saw it; the submit wing stores it with the text, version and digest. */
export interface ConsentEvidence {
  method: ConsentMethod;
  vouched_by: ConsentVoucher;
  mcp?: McpConsentContext;
  /** When the person confirmed, when they did before the request was stored (a page they confirmed a draft on). */
  confirmed_at?: string;
}

/**
 * The evidence of today's doors without any confirmation: a tick on the partner's own page (the form
 * post, or the workspace's button, which names itself) is the sender's word about the box; the HTTP
 * API, the WebMCP tool and MCP without elicitation are the agent's word.
 */
export function assertedConsent(channel: Channel, claimed?: string): ConsentEvidence {
  const onPage = channel === 'form' || (channel === 'http-api' && claimed === 'workspace');
  return onPage ? { method: 'site_form', vouched_by: 'sender' } : { method: 'agent_asserted', vouched_by: 'agent' };
}

/** What a stored request's consent says of itself (absent fields: stored before they were recorded). */
export interface ConsentShown {
  version: string;
  at: string;
  digest?: string;
  method?: ConsentMethod;
  vouched_by?: ConsentVoucher;
  confirmed_at?: string;
  mcp?: McpConsentContext;
}

/** One line for people: `email_link, vouched by first_party, confirmed 2026-…; version 2026-11-01 (sha-256:ab12…)`. */
export function consentText(consent: ConsentShown | undefined): string {
  if (consent === undefined) return 'not recorded';
  const how =
    consent.method === undefined
      ? 'how: not recorded'
      : `${consent.method}, vouched by ${consent.vouched_by ?? 'not recorded'}`;
  const when = consent.confirmed_at === undefined ? `given ${consent.at}` : `confirmed ${consent.confirmed_at}`;
  const mcp =
    consent.mcp === undefined
      ? ''
      : `; MCP ${consent.mcp.protocol_version ?? 'revision not recorded'}, client ${consent.mcp.client ?? 'not named'}`;
  const digest = consent.digest === undefined ? 'digest not recorded' : consent.digest.slice(0, 20);
  return `${how}, ${when}; version ${consent.version} (${digest})${mcp}`;
}
