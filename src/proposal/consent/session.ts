/**
 * What a 2025-era MCP client declared at `initialize`, kept without server state (each POST meets a
 * fresh SDK instance, which never sees the handshake): the `initialize` reply's `Mcp-Session-Id` is
 * the declaration itself, signed (HMAC-SHA-256, a key derived from CONSENT_SECRET) and expiring. The
 * client sends it back on every request (2025-03-26, "Session Management"); a tampered or expired one
 * is an unknown session, 404, so the client initializes again.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { revisionName } from '../../contract/consent.ts';
import { rpcError } from '../../contract/mcp-server.ts';
import { implementationName } from '../../contract/source.ts';

/** The revision whose stateless round trips carry an elicitation; the ones before it have sessions. */
export const ELICITING_REVISION = '2026-07-28';

/** How long a session's declaration is trusted; after it, the client initializes again. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;
const HEADER = 'mcp-session-id';
const MISMATCH = 'Bad Request: the MCP-Protocol-Version header names another revision than the session negotiated';

/** Only what consent needs: the revision negotiated, URL elicitation declared, `clientInfo` as `name/version`. */
export type DeclaredSession = { revision: string; url: boolean; client?: string; exp: number };

const sessionKey = (secret: string) => createHmac('sha256', secret).update('mcp-session-key').digest();
const mac = (secret: string, payload: string) =>
  createHmac('sha256', sessionKey(secret)).update(`mcp-session\n${payload}`).digest('base64url');

export function mintSession(secret: string, declared: Omit<DeclaredSession, 'exp'>, now: Date): string {
  const exp = Math.floor(now.getTime() / 1000) + SESSION_TTL_SECONDS;
  const payload = Buffer.from(JSON.stringify({ ...declared, exp })).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The declaration a token carries, when it is genuine, unexpired and of a 2025-era revision. */
export function readSession(secret: string, wire: string, now: Date): DeclaredSession | undefined {
  const [payload, given, extra] = wire.split('.');
  if (payload === undefined || given === undefined || extra !== undefined) return undefined;
  const [a, b] = [Buffer.from(given), Buffer.from(mac(secret, payload))];
  if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
  let value: Partial<DeclaredSession>;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<DeclaredSession>;
  } catch {
    return undefined;
  }
  const revision = revisionName(value.revision);
  if (revision === undefined || revision >= ELICITING_REVISION || typeof value.exp !== 'number') return undefined;
  if (value.exp * 1000 <= now.getTime()) return undefined;
  const client = typeof value.client === 'string' ? value.client : undefined;
  return { revision, url: value.url === true, ...(client !== undefined && { client }), exp: value.exp };
}

/**
 * This request's declaration: undefined without a secret or the header, or on a 2026-07-28 request (no
 * sessions there); `invalid` without a genuine unexpired token; `mismatch` when a genuine one names
 * another revision than the request does.
 */
export function sessionOf(secret: string | undefined, req: Request | undefined, now: Date) {
  const wire = req?.headers.get(HEADER)?.trim();
  const named = revisionName(req?.headers.get('mcp-protocol-version'));
  if (secret === undefined || wire === undefined || (named ?? '') >= ELICITING_REVISION) return undefined;
  const session = readSession(secret, wire, now);
  if (session === undefined) return 'invalid';
  return named === undefined || named === session.revision ? session : 'mismatch';
}

/** sessionOf for the tool call, which the door let through: the declaration, or nothing to go by. */
export function declaredSession(secret: string | undefined, req: Request | undefined, now: Date) {
  const session = sessionOf(secret, req, now);
  return typeof session === 'string' ? undefined : session;
}

/** What an `initialize` request declares, or undefined for any other message. */
function declaredAtInitialize(message: unknown) {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: Record<string, unknown> };
  if (method !== 'initialize' || typeof params !== 'object' || params === null) return undefined;
  const caps = params['capabilities'] as { elicitation?: Record<string, unknown> } | undefined;
  const url = typeof caps?.elicitation === 'object' && caps.elicitation !== null && 'url' in caps.elicitation;
  const client = implementationName(params['clientInfo']);
  return { url, ...(client !== undefined && { client }) };
}

/** The revision an `initialize` reply negotiated, read from its JSON or its one event-stream message. */
function negotiated(text: string): string | undefined {
  const data = text.includes('data:') ? text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n') : text; // prettier-ignore
  try {
    return revisionName((JSON.parse(data) as { result?: { protocolVersion?: unknown } }).result?.protocolVersion);
  } catch {
    return undefined;
  }
}

/**
 * The door's session step around `serve` (the SDK): refuses a tampered or expired session with 404,
 * and stamps a 2025-era `initialize` reply with the signed declaration as its Mcp-Session-Id.
 */
export async function withSession(
  secret: string | undefined,
  req: Request,
  message: unknown,
  serve: () => Promise<Response>,
  now = new Date(),
): Promise<Response> {
  const declared = secret === undefined ? undefined : declaredAtInitialize(message);
  const session = declared === undefined ? sessionOf(secret, req, now) : undefined;
  // The SDK's answer to a session it does not know, in the transport's own words.
  if (session === 'invalid') return rpcError(404, -32001, 'Session not found');
  // A genuine session of another revision than the request names: a bad request, not an unknown session.
  if (session === 'mismatch') return rpcError(400, -32000, MISMATCH);
  const reply = await serve();
  if (secret === undefined || declared === undefined || reply.status !== 200) return reply;
  const text = await reply.text();
  const revision = negotiated(text);
  const headers = new Headers(reply.headers);
  if (revision !== undefined && revision < ELICITING_REVISION)
    headers.set(HEADER, mintSession(secret, { revision, ...declared }, now));
  return new Response(text, { status: reply.status, statusText: reply.statusText, headers });
}
