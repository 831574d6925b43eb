/**
 * The HTTP handler in front of the pipeline, with a pipeline that records what it is given: who may
 * POST through a browser, and the client's network handed on as a hash only. Form posts, whose reply
 * is a page of the built site, are tests/built/form-posts.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createProposalHandler } from '../../src/proposal/http/handler.ts';
import type { ActionPipeline, ActionRequest } from '../../src/proposal/actions/pipeline.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import { asClient, clientNetworkKey, pipelineForClient } from '../../src/proposal/gate/client-network.ts';
import { MCP_WORDS } from '../../src/proposal/mcp/server.ts';

const SITE = 'https://kestrel.example';
const knowledge = {
  urls: { home: `${SITE}/`, agents: `${SITE}/agents` },
  partner: { name: 'Kestrel Cloud' },
} as unknown as Knowledge;

function handlerWithLog() {
  const seen: ActionRequest[] = [];
  const pipeline: ActionPipeline = {
    run: async (request) => {
      seen.push(request);
      return { status: 200, headers: { 'content-type': 'application/json' }, body: { action: 'guide', ok: true } };
    },
    scheduleSweep: () => undefined,
  };
  return { handle: createProposalHandler(knowledge, pipeline), seen };
}

const post = (headers: Record<string, string>, body = '{"action":"guide"}') =>
  new Request(`${SITE}/api/proposal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });

describe('cross-site browser posts', () => {
  it('refuses a browser POST from another site with a 403 problem', async () => {
    const { handle, seen } = handlerWithLog();
    const json = await handle(post({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }));
    expect(json.status).toBe(403);
    expect(json.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await json.json()) as { type: string; status: number };
    expect(problem).toMatchObject({ type: `${SITE}/agents#problem-cross-site-request`, status: 403 });

    // An Origin alone (an older browser without fetch metadata), or "null" from an opaque origin.
    expect((await handle(post({ origin: 'https://evil.example' }))).status).toBe(403);
    expect((await handle(post({ origin: 'null' }))).status).toBe(403);
    expect((await handle(post({ 'sec-fetch-site': 'same-site' }))).status).toBe(403);
    expect(seen).toHaveLength(0);
  });

  it("lets through the site's own pages and every client that is not a browser", async () => {
    const { handle, seen } = handlerWithLog();
    const own = await handle(post({ 'sec-fetch-site': 'same-origin', origin: SITE }));
    const curl = await handle(post({ 'user-agent': 'curl/8.5.0' }));
    expect([own.status, curl.status]).toEqual([200, 200]);
    expect(seen).toHaveLength(2);
  });
});

describe('the request source', () => {
  it('records the observed door, the claimed page, a bounded client name and only a hash of the network', async () => {
    const { handle, seen } = handlerWithLog();
    await handle(post({ 'proposal-channel': 'workspace', 'user-agent': 'x'.repeat(300) }), {
      waitUntil: () => undefined,
      ip: '203.0.113.9',
    });
    expect(seen[0]!.source).toEqual({
      channel: 'http-api',
      claimed_channel: 'workspace',
      client: 'x'.repeat(64),
      network: clientNetworkKey('203.0.113.9'),
    });
    expect(JSON.stringify(seen[0]!.source)).not.toContain('203.0.113');
  });

  it('hands a door that builds its own source (MCP) the same network key', async () => {
    const seen: ActionRequest[] = [];
    const inner: ActionPipeline = {
      run: async (request) => (seen.push(request), { status: 200, body: null }),
      scheduleSweep: () => undefined,
    };
    const forClient = pipelineForClient(inner);
    const request = {
      body: {},
      idempotencyKey: null,
      door: MCP_WORDS,
      source: { channel: 'mcp' as const, client: 'claude-ai/1.0' },
    };
    await asClient('2001:db8:5::1', () => forClient.run(request));
    await asClient(undefined, () => forClient.run(request));
    expect(seen[0]!.source).toEqual({
      channel: 'mcp',
      client: 'claude-ai/1.0',
      network: clientNetworkKey('2001:db8:5:0::9'),
    });
    // An invocation without a known address runs the request as it came.
    expect(seen[1]!.source).toEqual({ channel: 'mcp', client: 'claude-ai/1.0' });
  });
});
