/** Where a request came from, shown to the sales team: what the client says of itself, not proof. */

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
  channel: Channel;
  /** The client's name for itself: its User-Agent product, or an MCP client's `clientInfo`. */
  client?: string | undefined;
}

/** Printable ASCII only, one line, at most 100 characters: the name is shown in mail subjects and terminals. */
function cleanName(value: string): string | undefined {
  const name = value
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim()
    .slice(0, 100);
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

/** The channel an HTTP request to the proposal API names: a page's own, else the HTTP API. */
export function httpChannel(form: boolean, named: string | null): Channel {
  if (form) return 'form';
  const value = (named ?? '').trim().toLowerCase();
  return (PAGE_CHANNELS as readonly string[]).includes(value) ? (value as Channel) : 'http-api';
}

/** One line for people: `MCP server (client: claude-ai/1.0)`. */
export function sourceText(source: RequestSource | undefined): string {
  if (source === undefined) return 'not recorded';
  return `${CHANNELS[source.channel]}${source.client === undefined ? '' : ` (client: ${source.client})`}`;
}
