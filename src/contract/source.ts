/**
 * Where a request came from, shown to the sales team: what the server observed (the door it came
 * through), kept apart from what the client says of itself (its name, the channel it claims).
 */

export const CHANNELS = {
  workspace: 'proposal workspace',
  form: 'proposal form without JavaScript',
  webmcp: 'WebMCP tool in the proposal workspace',
  'http-api': 'HTTP API',
  mcp: 'MCP server',
} as const;
export type Channel = keyof typeof CHANNELS;

/** Channels a page of the site names for itself in CHANNEL_HEADER; anything else is the HTTP API. */
export const PAGE_CHANNELS = ['workspace', 'webmcp'] as const satisfies readonly Channel[];

/** Request header the workspace's script sends: `workspace` when a person pressed the button, `webmcp` for a tool. */
export const CHANNEL_HEADER = 'proposal-channel';

export interface RequestSource {
  /** The door the server saw: the form (form-encoded), the HTTP API (JSON) or MCP. */
  channel: Channel;
  /** The page channel the request names for itself (CHANNEL_HEADER): the sender's claim, never checked. */
  claimed_channel?: PageChannel | undefined;
  /** The client's name for itself: its User-Agent product, or an MCP client's `clientInfo`. */
  client?: string | undefined;
  /** A truncated hash of the client's network (./client-network.ts), for the per-client send limit only. */
  network?: string | undefined;
}

export type PageChannel = (typeof PAGE_CHANNELS)[number];

/** The longest client name kept: enough for `name/version`, too short to carry a message. */
export const MAX_CLIENT_NAME_LENGTH = 64;

/**
 * Letters, digits, spaces and `. _ - / + : ( )`, one line, at most MAX_CLIENT_NAME_LENGTH: what a
 * product or implementation name needs, and nothing a chat service, mail client or terminal acts on
 * (no `<`, `>`, `@`, `[`, `]`, `&`, quotes or control characters).
 */
function cleanName(value: string): string | undefined {
  const name = value
    .replace(/[^A-Za-z0-9 ._\-/+:()]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_CLIENT_NAME_LENGTH)
    .trim();
  return name === '' ? undefined : name;
}

/** The first product of a User-Agent (RFC 9110 section 10.1.5): `curl/8.5.0`, `Mozilla/5.0`. */
export function userAgentProduct(userAgent: string | null): string | undefined {
  const first = /^\s*([^\s()]+)/.exec(userAgent ?? '')?.[1];
  return first === undefined ? undefined : cleanName(first);
}

/** An MCP `Implementation` ({ name, version }) as `name/version`; undefined when it is not one. */
export function implementationName(info: unknown): string | undefined {
  if (typeof info !== 'object' || info === null) return undefined;
  const { name, version } = info as { name?: unknown; version?: unknown };
  if (typeof name !== 'string') return undefined;
  return cleanName(typeof version === 'string' && version !== '' ? `${name}/${version}` : name);
}

/** The door an HTTP request to the proposal API came through: a form post, or the HTTP API. */
export function httpChannel(form: boolean): Channel {
  return form ? 'form' : 'http-api';
}

/** The page channel a request names in CHANNEL_HEADER, when it names one: a claim, recorded as such. */
export function claimedChannel(named: string | null): PageChannel | undefined {
  const value = (named ?? '').trim().toLowerCase();
  return PAGE_CHANNELS.find((channel) => channel === value);
}

/** One line for people: `HTTP API (client: Mozilla/5.0; says: proposal workspace)`. */
export function sourceText(source: RequestSource | undefined): string {
  if (source === undefined) return 'not recorded';
  const notes = [
    ...(source.client === undefined ? [] : [`client: ${source.client}`]),
    ...(source.claimed_channel === undefined ? [] : [`says: ${CHANNELS[source.claimed_channel]}`]),
  ];
  return `${CHANNELS[source.channel]}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`;
}
