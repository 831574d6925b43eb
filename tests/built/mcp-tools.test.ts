/**
 * The MCP tools are the contract's actions, from one source: called in-process through the
 * function's default export at /mcp, their schemas are read against dist/api/proposal.json. And
 * the edge of /mcp: Host and Origin, batches, malformed calls, never a stack trace. And consent
 * asked over MCP (issue 44), with the official SDK v2 client fetching from the doors in-process: the
 * person confirms on the partner's page, which the record keeps as url_page vouched for by the
 * host (never first_party), at the time of the press; strict mode still holds such a request.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { getStore } from '@netlify/blobs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import handler from '../../netlify/functions/proposal.mts';
import { readDist } from '../../scripts/local-site/dist.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { PROPOSALS_STORE } from '../../src/proposal/store/blobs.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { functionDoors, knowledge, type Doors } from '../helpers/function-doors.ts';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import { envOf } from '../helpers/submit-fixtures.ts';

const contract = JSON.parse(readDist('api/proposal.json'));
const MCP = 'https://kestrelcloud.example/mcp';

async function rpc(body: unknown, headers: Record<string, string> = {}) {
  const res = await handler(
    new Request(MCP, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, body: res.status === 202 ? null : await rpcMessage(res) };
}

/** The raw reply text, to look for what must never be in it. */
async function rawRpc(body: unknown, headers: Record<string, string> = {}) {
  const res = await handler(
    new Request(MCP, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, text: await res.text() };
}

describe('MCP tools from the contract', () => {
  it("each tool's input schema is its action's request schema without `action`; submit adds idempotency_key", async () => {
    const { body } = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const byName = Object.fromEntries(body.result.tools.map((t: { name: string }) => [t.name, t]));
    for (const [tool, action] of [
      ['request_guidance', 'guide'],
      ['review_proposal_request', 'summarize'],
      ['submit_proposal_request', 'submit'],
    ] as const) {
      const { properties, required, ...rest } = contract.actions[action].request_schema;
      const { action: _action, ...fields } = properties;
      const input = byName[tool].inputSchema;
      const { idempotency_key: key, ...inputFields } = input.properties;
      expect(inputFields, tool).toEqual(fields);
      expect(
        input.required.filter((r: string) => r !== 'idempotency_key'),
        tool,
      ).toEqual(required.filter((r: string) => r !== 'action'));
      expect({ ...input, properties: undefined, required: undefined }, tool).toEqual({
        ...rest,
        properties: undefined,
        required: undefined,
      });
      expect(key !== undefined, tool).toBe(action === 'submit');
    }
  });

  it('a notification gets 202 and no body; an unknown method -32601; an unknown tool -32602', async () => {
    expect((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await rpc({ jsonrpc: '2.0', id: 2, method: 'resources/list' })).body.error.code).toBe(-32601);
    const unknown = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } });
    expect(unknown.body.error.code).toBe(-32602);
  });

  it('refuses what is not JSON-RPC, not JSON, or not JSON content', async () => {
    expect((await rpc({ hello: 'world' })).body.error.code).toBe(-32600);
    const notJson = await handler(
      new Request(MCP, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
    );
    expect(notJson.status).toBe(400);
    const form = await handler(
      new Request(MCP, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }),
    );
    expect(form.status).toBe(415);
    const tooLarge = await rpc({ jsonrpc: '2.0', id: 4, method: 'ping', params: { pad: 'x'.repeat(40_000) } });
    expect(tooLarge.status).toBe(413);
  });

  it('guidance sent an idempotency_key is refused by the schema, as the HTTP API refuses extra fields', async () => {
    const { action: _a, ...args } = contract.actions.guide.example_request;
    const { body } = await rpc({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'request_guidance', arguments: { ...args, idempotency_key: 'k-1' } },
    });
    expect(body.result.isError).toBe(true);
    expect(JSON.parse(body.result.content[0].text)).toMatchObject({ status: 422 });
  });
});

describe('the edge of /mcp', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  };

  it('refuses a Host or Origin it is not served on (DNS rebinding), with or without a matching pair', async () => {
    const rebound = await rpc(initialize, { host: 'evil.example', origin: 'http://evil.example' });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
    expect((await rpc(initialize, { origin: 'https://attacker.example' })).status).toBe(403);
    expect((await rpc(initialize, { origin: 'null' })).status).toBe(403);
    expect((await rpc(initialize, { host: 'evil.example' })).status).toBe(403);
  });

  it('accepts the canonical host, loopback names and the deploy hosts Netlify names in URL, DEPLOY_URL, DEPLOY_PRIME_URL', async () => {
    for (const host of ['kestrelcloud.example', 'localhost:8888', '127.0.0.1:3000', '[::1]:8888']) {
      expect((await rpc(initialize, { host, origin: `http://${host}` })).status, host).toBe(200);
    }
    const preview = 'deploy-preview-7--kestrel.netlify.app';
    expect((await rpc(initialize, { host: preview })).status).toBe(403);
    // The hosts are configuration, read once per instance: an instance deployed with the variable.
    for (const variable of ['URL', 'DEPLOY_URL', 'DEPLOY_PRIME_URL']) {
      const { mcp } = functionDoors({}, envOf({ [variable]: `https://${preview}` }));
      const res = await mcp(
        new Request(MCP, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            host: preview,
            origin: `https://${preview}`,
          },
          body: JSON.stringify(initialize),
        }),
      );
      expect(res.status, variable).toBe(200);
    }
  });

  it('refuses a batch under every protocol version: -32600, nothing in it is run', async () => {
    for (const version of [undefined, '2025-03-26', '2025-11-25']) {
      const batch = await rpc(
        [initialize, { jsonrpc: '2.0', id: 2, method: 'ping' }],
        version ? { 'mcp-protocol-version': version } : {},
      );
      expect(batch.status, version).toBe(400);
      expect(batch.body.error.code, version).toBe(-32600);
    }
  });

  it('a tools/call whose name is not a string is -32602, never a 500', async () => {
    for (const name of [{ toString: 1 }, 42, null, ['request_guidance']]) {
      const res = await rpc({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name } });
      expect(res.status, JSON.stringify(name)).toBe(200);
      expect(res.body.error.code, JSON.stringify(name)).toBe(-32602);
    }
  });

  it('no reply names a file, a path or a stack frame', async () => {
    const odd: unknown[] = [
      { hello: 'world' },
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'request_guidance', arguments: 'x' } },
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'submit_proposal_request', arguments: { idempotency_key: 5 } },
      },
      { jsonrpc: '2.0', id: 10, method: 'tools/list', params: { cursor: { x: 1 } } },
      { jsonrpc: '2.0', id: {}, method: 'ping' },
      { jsonrpc: '2.0', id: 11, method: 'server/discover', params: { _meta: 'x' } },
      { jsonrpc: '2.0', id: 12, result: { x: 1 } },
    ];
    for (const body of odd) {
      const { status, text } = await rawRpc(body);
      expect(status, text).toBeLessThan(500);
      expect(text, JSON.stringify(body)).not.toMatch(
        /\bat \S+ \(|\.(?:ts|mts|js|mjs):\d+|node_modules|\/work\/|file:\/\//,
      );
    }
  });
});

describe('consent asked over MCP, in-process', () => {
  const SECRET = randomBytes(32).toString('base64url');
  const CLIENT = { name: 'consent-host', version: '2.0.1' };
  let blobs: TestBlobs;
  beforeAll(async () => {
    blobs = await startBlobs();
  });
  afterAll(async () => blobs?.stop());

  const records = async () => {
    const store = getStore({ name: PROPOSALS_STORE, consistency: 'strong' });
    const { blobs: listed } = await store.list({ prefix: 'requests/' });
    return Promise.all(listed.map(async ({ key }) => (await store.get(key, { type: 'json' })) as ProposalRecord));
  };
  const recordOf = async (company: string) => (await records()).find((r) => r.contact.company === company);

  /** A 2026-07-28 client declaring URL elicitation; `press` plays the person on the page it is sent to. */
  async function urlClient(doors: Doors, press: (page: URL) => Promise<void>) {
    const client = new Client(CLIENT, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: { url: {} } },
    });
    client.setRequestHandler('elicitation/create', (async (request: { params: Record<string, unknown> }) => {
      await press(new URL(String(request.params['url'])));
      return { action: 'accept' };
    }) as never);
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (url, init) => doors.mcp(new Request(url, init)),
      }),
    );
    return client;
  }

  /** The confirmation page: what the link names (check_link), then "Yes, this was me" posted as its form does. */
  async function confirmOnPage(doors: Doors, page: URL, seen: Record<string, unknown>[]) {
    const request = page.searchParams.get('request')!;
    const token = page.searchParams.get('token')!;
    const named = await doors.http(
      new Request('http://127.0.0.1/api/proposal', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'check_link', request_id: request, token, answer: 'confirm' }),
      }),
    );
    seen.push((await named.json()) as Record<string, unknown>);
    const pressed = await doors.http(
      new Request(`http://127.0.0.1${page.pathname}${page.search}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body: '',
      }),
    );
    expect(pressed.status).toBe(200);
    expect(await pressed.text()).toContain('Request confirmed');
  }

  const submitArguments = (company: string) => {
    const { action: _action, ...fields } = EXAMPLE_REQUESTS.submit;
    return { ...fields, company, idempotency_key: randomUUID() };
  };
  const resultOf = (result: unknown) =>
    JSON.parse((result as { content: { text: string }[] }).content[0]!.text) as Record<string, unknown>;

  it("the person confirms on the partner's page: url_page vouched for by the host, confirmed when pressed, never first_party", async () => {
    const doors = functionDoors({}, envOf({ CONSENT_SECRET: SECRET }));
    const seen: Record<string, unknown>[] = [];
    const pages: string[] = [];
    let pressedAt = { from: 0, to: 0 };
    const client = await urlClient(doors, async (page) => {
      pages.push(page.pathname);
      // Asked before anything is stored: the page shows the draft, in the site's words, and the consent text.
      expect(await recordOf('Url Page Ltd')).toBeUndefined();
      pressedAt = { from: Date.now(), to: 0 };
      await confirmOnPage(doors, page, seen);
      pressedAt.to = Date.now();
    });
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: submitArguments('Url Page Ltd'),
    });
    await client.close();
    expect(pages).toEqual(['/confirm/yes']);
    expect(seen).toEqual([
      {
        status: 'valid',
        company: 'Url Page Ltd',
        received_at: expect.any(String),
        choices: expect.arrayContaining(['Defined project']),
        consent_text: knowledge.consent.text,
      },
    ]);
    expect(resultOf(result)).toMatchObject({ status: 'received' });
    const consent = (await recordOf('Url Page Ltd'))!.consent;
    expect(consent).toMatchObject({
      method: 'url_page',
      vouched_by: 'mcp_host',
      mcp: { protocol_version: '2026-07-28', client: 'consent-host/2.0.1' },
    });
    const confirmedAt = Date.parse(consent.confirmed_at!);
    expect(confirmedAt).toBeGreaterThanOrEqual(pressedAt.from);
    expect(confirmedAt).toBeLessThanOrEqual(pressedAt.to);
  });

  it('strict consent still holds a request confirmed on that page: the mailbox has not answered', async () => {
    const doors = functionDoors({}, envOf({ CONSENT_SECRET: SECRET, CONSENT_CONFIRMATION: 'required' }));
    const client = await urlClient(doors, (page) => confirmOnPage(doors, page, []));
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: submitArguments('Held Page Ltd'),
    });
    await client.close();
    expect(resultOf(result)).toMatchObject({ status: 'awaiting_confirmation' });
    const record = (await recordOf('Held Page Ltd'))!;
    expect(record.hold).toBeDefined();
    expect(record.delivery.state).toBe('pending');
    expect(record.consent).toMatchObject({ method: 'url_page', vouched_by: 'mcp_host' });
  });
});
