/**
 * Issue 38, items 5, 7 and 8, through the shipped function's entry in-process: every reply, whichever
 * door and whoever built it (the MCP SDK included), is never cached and never sniffed, and an HTML
 * reply keeps its CSP; subscriptions/listen is answered as docs/api.md says; the API refuses a
 * foreign Host as /mcp does (DNS rebinding); a 2025-era request whose Mcp-Method/Mcp-Name headers
 * contradict its body is refused like a 2026-07-28 one.
 */
import { randomUUID } from 'node:crypto';
import { getStore } from '@netlify/blobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import handler from '../../netlify/functions/proposal.mts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import { PROPOSALS_STORE } from '../../src/proposal/store/blobs.ts';

const SITE = 'http://127.0.0.1';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'hardening-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const JSON_RPC = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const modern = (method: string) => ({ ...JSON_RPC, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method });
const { action: _a, website: _w, form_started_at: _f, ...submitArguments } = submitRequest();

const call = (path: string, init: RequestInit) => handler(new Request(`${SITE}${path}`, init));
const api = (body: unknown, headers: Record<string, string> = {}) =>
  call('/api/proposal', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const mcp = (body: unknown, headers: Record<string, string> = JSON_RPC) =>
  call('/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
const guide = {
  action: 'guide',
  question: 'Migrate our data center.',
  industry: 'retail',
  company_size: '11-50',
  primary_need: 'not-sure',
};

let blobs: TestBlobs;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => blobs?.stop());

describe('every reply of the function is hardened', () => {
  it('carries Cache-Control: no-store and X-Content-Type-Options: nosniff, whoever built it', async () => {
    const replies: Record<string, Response> = {
      'API result': await api(guide),
      'API problem': await api({ action: 'nope' }),
      'API preflight': await call('/api/proposal', { method: 'OPTIONS' }),
      'API form page': await call('/api/proposal', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...guide, form_started_at: '1' }).toString(),
      }),
      'MCP 2026-07-28 (SDK)': await mcp(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } },
        modern('tools/list'),
      ),
      'MCP 2025 (SDK)': await mcp({
        jsonrpc: '2.0',
        id: 2,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
      'MCP notification (SDK)': await mcp({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      'MCP refusal': await mcp({ jsonrpc: '2.0', id: 3, method: 'ping' }, { ...JSON_RPC, host: 'evil.example' }),
      'MCP 405': await call('/mcp', { method: 'DELETE' }),
    };
    for (const [name, res] of Object.entries(replies)) {
      expect(res.headers.get('cache-control'), name).toBe('no-store');
      expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
      await res.body?.cancel();
    }
    expect(replies['API form page']!.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
  });

  it('answers subscriptions/listen as docs/api.md says: a short stream that offers nothing and ends', async () => {
    const res = await mcp(
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'subscriptions/listen',
        params: { _meta: META, notifications: { toolsListChanged: true } },
      },
      modern('subscriptions/listen'),
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The whole body arrives: the stream ends by itself instead of holding the invocation open.
    const text = await res.text();
    expect(text).toContain('"notifications/subscriptions/acknowledged"');
    expect(text).toContain('"notifications":{}');
    expect(text).toMatch(/"id":4,"result":\{"resultType":"complete"/);
  });
});

describe('one host allowlist for both doors (DNS rebinding)', () => {
  it('refuses a page of another host that resolves to this server, on /api/proposal as on /mcp', async () => {
    // The platform builds the request's URL from its Host, so the Origin matches the URL: only the list tells.
    const rebound = (path: string, body: unknown, headers: Record<string, string>) =>
      handler(
        new Request(`http://evil.example${path}`, {
          method: 'POST',
          headers: { host: 'evil.example', origin: 'http://evil.example', ...headers },
          body: JSON.stringify(body),
        }),
      );
    const viaApi = await rebound('/api/proposal', guide, { 'content-type': 'application/json' });
    expect(viaApi.status).toBe(403);
    expect(await viaApi.json()).toMatchObject({ type: expect.stringMatching(/#problem-cross-site-request$/) });
    const viaMcp = await rebound('/mcp', { jsonrpc: '2.0', id: 5, method: 'ping' }, JSON_RPC);
    expect(viaMcp.status).toBe(403);
    // The site's own hosts still get in.
    expect((await api(guide, { host: '127.0.0.1', origin: SITE })).status).toBe(200);
  });
});

describe('a 2025-era request labelled with 2026 headers', () => {
  it('is refused when Mcp-Method or Mcp-Name contradict its body, like a 2026-07-28 one, and nothing runs', async () => {
    const submit = (id: number, meta: object = {}) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'submit_proposal_request',
        arguments: { ...submitArguments, idempotency_key: randomUUID() },
        ...meta,
      },
    });
    const labelled = { 'mcp-method': 'tools/list', 'mcp-name': 'request_guidance' };
    const legacy = await mcp(submit(6), { ...JSON_RPC, 'mcp-protocol-version': '2025-11-25', ...labelled });
    const current = await mcp(submit(7, { _meta: META }), { ...modern('tools/call'), ...labelled });
    for (const res of [legacy, current]) {
      expect(res.status).toBe(400);
      expect((await rpcMessage(res)).error.code).toBe(-32020);
    }
    const onlyName = await mcp(submit(8), { ...JSON_RPC, 'mcp-name': 'request_guidance' });
    expect(onlyName.status).toBe(400);
    expect((await getStore({ name: PROPOSALS_STORE, consistency: 'strong' }).list()).blobs).toEqual([]);
  });
});
