import { describe, expect, it } from 'vitest';
import {
  mintSession,
  readSession,
  SESSION_TTL_SECONDS,
  sessionOf,
  withSession,
} from '../../src/proposal/consent/session.ts';

const SECRET = 'session-secret-of-at-least-32-characters';
const NOW = new Date('2026-11-28T06:00:00Z');
const DECLARED = { revision: '2025-11-25', url: true, client: 'consent-e2e-host/2.0.1' };
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

const request = (headers: Record<string, string>) =>
  new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', ...headers } });

/** The token with one character of its payload or signature changed. */
function flip(token: string, at: number): string {
  const c = token[at] === 'A' ? 'B' : 'A';
  return token.slice(0, at) + c + token.slice(at + 1);
}

describe('the 2025-era session token', () => {
  it('carries what the client declared, until it expires', () => {
    const token = mintSession(SECRET, DECLARED, NOW);
    expect(token).toMatch(/^[\x21-\x7e]+$/); // a session id is visible ASCII (2025-03-26)
    expect(readSession(SECRET, token, later(60))).toEqual({
      ...DECLARED,
      exp: NOW.getTime() / 1000 + SESSION_TTL_SECONDS,
    });
    expect(readSession(SECRET, token, later(SESSION_TTL_SECONDS - 1))).toBeDefined();
    expect(readSession(SECRET, token, later(SESSION_TTL_SECONDS))).toBeUndefined();
  });

  it('is refused when its payload or signature was changed, or it was signed with another secret', () => {
    const token = mintSession(SECRET, DECLARED, NOW);
    const dot = token.indexOf('.');
    expect(readSession(SECRET, flip(token, 3), NOW)).toBeUndefined();
    expect(readSession(SECRET, flip(token, dot + 3), NOW)).toBeUndefined();
    // A payload that says url: false, re-encoded but not re-signed.
    const forged = Buffer.from(JSON.stringify({ ...DECLARED, url: false, exp: 9e9 })).toString('base64url');
    expect(readSession(SECRET, `${forged}${token.slice(dot)}`, NOW)).toBeUndefined();
    expect(readSession(`${SECRET}-rotated`, token, NOW)).toBeUndefined();
    expect(readSession(SECRET, `${token}.x`, NOW)).toBeUndefined();
    expect(readSession(SECRET, 'not-a-token', NOW)).toBeUndefined();
  });

  it('is refused for a revision that has no sessions, and on a request of another revision', () => {
    expect(readSession(SECRET, mintSession(SECRET, { ...DECLARED, revision: '2026-07-28' }, NOW), NOW)).toBeUndefined();
    const token = mintSession(SECRET, DECLARED, NOW);
    const headers = { 'mcp-session-id': token };
    expect(sessionOf(SECRET, request({ ...headers, 'mcp-protocol-version': '2025-11-25' }), NOW)).toMatchObject(
      DECLARED,
    );
    // 2025-03-26 clients send no MCP-Protocol-Version header.
    expect(sessionOf(SECRET, request(headers), NOW)).toMatchObject(DECLARED);
    // A genuine session named with another revision than it negotiated: a mismatch, not an unknown session.
    expect(sessionOf(SECRET, request({ ...headers, 'mcp-protocol-version': '2025-06-18' }), NOW)).toBe('mismatch');
    expect(
      sessionOf(SECRET, request({ 'mcp-session-id': flip(token, 3), 'mcp-protocol-version': '2025-06-18' }), NOW),
    ).toBe('invalid');
    // 2026-07-28 has no sessions: the header is not read there.
    expect(sessionOf(SECRET, request({ ...headers, 'mcp-protocol-version': '2026-07-28' }), NOW)).toBeUndefined();
    expect(sessionOf(undefined, request(headers), NOW)).toBeUndefined();
  });
});

describe('the door’s session step', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { url: {}, form: {} } },
      clientInfo: { name: 'consent-e2e-host', version: '2.0.1' },
    },
  };
  const sseReply = (protocolVersion: string) => () =>
    Promise.resolve(
      new Response(
        `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion } })}\n\n`,
        {
          headers: { 'content-type': 'text/event-stream' },
        },
      ),
    );

  it('stamps the initialize reply with the declaration the SDK negotiated, and keeps its body', async () => {
    const reply = await withSession(SECRET, request({}), initialize, sseReply('2025-11-25'), NOW);
    expect(reply.headers.get('content-type')).toBe('text/event-stream');
    expect(await reply.text()).toContain('"protocolVersion":"2025-11-25"');
    expect(readSession(SECRET, reply.headers.get('mcp-session-id')!, NOW)).toMatchObject(DECLARED);
    const plain = { ...initialize, params: { ...initialize.params, capabilities: {}, clientInfo: { name: 'bare' } } };
    const bare = await withSession(SECRET, request({}), plain, sseReply('2025-06-18'), NOW);
    expect(readSession(SECRET, bare.headers.get('mcp-session-id')!, NOW)).toEqual({
      revision: '2025-06-18',
      url: false,
      client: 'bare',
      exp: NOW.getTime() / 1000 + SESSION_TTL_SECONDS,
    });
    const unsigned = await withSession(undefined, request({}), initialize, sseReply('2025-11-25'), NOW);
    expect(unsigned.headers.get('mcp-session-id')).toBeNull();
  });

  it('answers a tampered or expired session 404 without calling the SDK; a genuine one passes', async () => {
    let served = 0;
    const serve = () => {
      served += 1;
      return Promise.resolve(Response.json({ jsonrpc: '2.0', id: 2, result: {} }));
    };
    const token = mintSession(SECRET, DECLARED, NOW);
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const headers = { 'mcp-protocol-version': '2025-11-25' };
    for (const [wire, at] of [
      [flip(token, 5), NOW],
      [token, later(SESSION_TTL_SECONDS + 1)],
    ] as const) {
      const refused = await withSession(SECRET, request({ ...headers, 'mcp-session-id': wire }), call, serve, at);
      expect(refused.status).toBe(404);
      expect(await refused.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
    }
    expect(served).toBe(0);
    const passed = await withSession(SECRET, request({ ...headers, 'mcp-session-id': token }), call, serve, NOW);
    expect(passed.status).toBe(200);
    expect(served).toBe(1);
  });

  it('answers a genuine session sent with another supported revision 400, not 404, without calling the SDK', async () => {
    let served = 0;
    const serve = () => {
      served += 1;
      return Promise.resolve(Response.json({ jsonrpc: '2.0', id: 3, result: {} }));
    };
    const token = mintSession(SECRET, DECLARED, NOW);
    const call = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
    for (const revision of ['2025-06-18', '2025-03-26']) {
      const reply = await withSession(
        SECRET,
        request({ 'mcp-protocol-version': revision, 'mcp-session-id': token }),
        call,
        serve,
        NOW,
      );
      // The session is known: the client must not be told to initialize again, but that the request contradicts it.
      expect(reply.status).toBe(400);
      expect(await reply.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
    expect(served).toBe(0);
    const same = await withSession(
      SECRET,
      request({ 'mcp-protocol-version': DECLARED.revision, 'mcp-session-id': token }),
      call,
      serve,
      NOW,
    );
    expect(same.status).toBe(200);
  });
});
