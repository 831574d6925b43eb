/**
 * The MCP endpoint as agents' clients meet it: `npm start`, a real SMTP server and a CRM webhook on
 * loopback, and three official clients: SDK v2 (@modelcontextprotocol/client) pinned to 2026-07-28
 * and in auto mode, and SDK 1.x (@modelcontextprotocol/sdk, 2025-11-25). Each lists the three tools
 * and calls each with a valid and an invalid argument set. One key submitted twice stores one
 * request and the second result says it is a replay; refusals are isError results with the problem,
 * in MCP's words; a foreign Origin, GET and DELETE are refused at the HTTP edge; and the stored
 * request names its channel and client in the CRM record, the sales notice and `npm run inbox`.
 */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import { LEGACY_PROTOCOL_VERSIONS } from '../../src/proposal/mcp/server-info.ts';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import { REPLAYED_META } from '../../src/proposal/actions/tools.ts';
import { METHOD_NOT_ALLOWED } from '../../src/proposal/gate/json-rpc.ts';

const SALES = 'proposals@kestrelcloud.example';
const CLIENT = { name: 'proposal-e2e-agent', version: '1.4.2' };

let site: RunningSite;
let crm: TestCrmServer;
let smtp: TestSmtp;

beforeAll(async () => {
  [crm, smtp] = await Promise.all([startCrmServer(), startSmtp()]);
  site = await startSite({
    ...loopbackDeliveryEnv(crm, smtp),
  });
});

afterAll(async () => {
  await site?.stop();
  await Promise.all([crm?.stop(), smtp?.stop()]);
});

/** A connected SDK client; `headers` are sent with every request. */
async function connect(headers: Record<string, string> = {}): Promise<Client> {
  return (await connectWith(headers)).client;
}

async function connectWith(headers: Record<string, string> = {}) {
  const client = new Client(CLIENT);
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', site.url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

/** The submit example as tool arguments: no `action` (the tool is the action), a key. */
function submitArguments(key: string, company = 'MCP Example Ltd'): Record<string, unknown> {
  const { action: _action, ...fields } = EXAMPLE_REQUESTS.submit;
  return { ...fields, company, idempotency_key: key };
}

const textOf = (result: unknown) =>
  JSON.parse((result as { content: { type: string; text: string }[] }).content[0]!.text) as Record<string, unknown>;

/** What both SDK generations' clients offer; each is driven through the same calls. */
interface ToolClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** A v2 client in one negotiation mode; the pinned one fails unless server/discover offers 2026-07-28. */
async function connectV2(mode: 'auto' | { pin: string }) {
  const client = new ClientV2(CLIENT, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransportV2(new URL('/mcp', site.url)));
  return client;
}

const { action: _g, ...GUIDE_ARGS } = EXAMPLE_REQUESTS.guide;
const { action: _s, ...REVIEW_ARGS } = EXAMPLE_REQUESTS.summarize;

/** Lists the three tools, then calls each with a valid and an invalid argument set. */
async function exerciseTools(client: ToolClient, company: string) {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(['request_guidance', 'review_proposal_request', 'submit_proposal_request']);
  const calls: [string, Record<string, unknown>, Record<string, unknown>, RegExp][] = [
    ['request_guidance', GUIDE_ARGS, { question: GUIDE_ARGS.question }, /#problem-invalid-request$/],
    ['review_proposal_request', REVIEW_ARGS, { ...REVIEW_ARGS, budget: 'none' }, /#problem-invalid-request$/],
    [
      'submit_proposal_request',
      submitArguments(randomUUID(), company),
      { ...submitArguments(randomUUID(), company), consent: false },
      /#problem-consent-required$/,
    ],
  ];
  for (const [name, valid, invalid, problem] of calls) {
    const ok = (await client.callTool({ name, arguments: valid })) as {
      isError?: boolean;
      structuredContent?: unknown;
    };
    expect(ok.isError, name).toBeFalsy();
    expect(ok.structuredContent, name).toEqual(textOf(ok));
    const refused = (await client.callTool({ name, arguments: invalid })) as { isError?: boolean };
    expect(refused.isError, name).toBe(true);
    expect(textOf(refused), name).toMatchObject({ status: 422, type: expect.stringMatching(problem) });
  }
  await client.close();
}

describe('each client lists the three tools and calls each with valid and invalid arguments', () => {
  it('SDK v2 pinned to 2026-07-28: server/discover offers it', async () => {
    const client = await connectV2({ pin: '2026-07-28' });
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerVersion()).toMatchObject({ name: 'kestrel-cloud-proposals' });
    await exerciseTools(client, 'Pinned Ltd');
  });

  it('SDK v2 in auto mode settles on 2026-07-28', async () => {
    const client = await connectV2('auto');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await exerciseTools(client, 'Auto Ltd');
  });

  it('SDK 1.x connects with initialize at 2025-11-25', async () => {
    const { client, transport } = await connectWith();
    expect(transport.protocolVersion).toBe('2025-11-25');
    await exerciseTools(client, 'Legacy Ltd');
  });

  it('over 2026-07-28, tools/list carries a cache hint and the tool texts speak MCP, not the HTTP API', async () => {
    const res = await fetch(`${site.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': CLIENT,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { result } = (await res.json()) as { result: { ttlMs: number; cacheScope: string; tools: unknown[] } };
    expect(result).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'public' });
    expect(result.ttlMs).toBeGreaterThan(0);
    expect(JSON.stringify(result.tools)).not.toMatch(/Idempotency-Key|\{\\"action\\"|\/api\/proposal/);
  });
});

describe('POST /mcp through the official SDK client', () => {
  it('initializes with a protocol version the specification lists and names the server', async () => {
    const { client, transport } = await connectWith();
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()).toMatchObject({ name: 'kestrel-cloud-proposals', version: expect.any(String) });
    expect(client.getServerCapabilities()).toHaveProperty('tools');
    expect(client.getInstructions()).toMatch(/consent/);
    await client.close();
  });

  it('lists the three tools by their WebMCP names, with schemas and truthful annotations', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    console.log(
      'tools/list as the SDK client sees it:\n' +
        tools
          .map(
            (t) =>
              `  ${t.name} "${t.title}" in: ${Object.keys(t.inputSchema.properties ?? {}).length} properties, required ${JSON.stringify(t.inputSchema.required)}; out: ${JSON.stringify(t.outputSchema?.required)}; ${JSON.stringify(t.annotations)}`,
          )
          .join('\n'),
    );
    expect(tools.map((t) => t.name)).toEqual([
      'request_guidance',
      'review_proposal_request',
      'submit_proposal_request',
    ]);
    const [guide, review, submit] = tools;
    expect(guide!.inputSchema.required).toEqual(['question', 'industry', 'company_size', 'primary_need']);
    expect(guide!.inputSchema.properties).not.toHaveProperty('action');
    expect(submit!.inputSchema.required).toEqual(expect.arrayContaining(['consent', 'email', 'idempotency_key']));
    for (const tool of tools) expect(tool.outputSchema?.type).toBe('object');
    expect(guide!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(review!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(submit!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    await client.close();
  });

  it('calls guidance and review: structured results the output schemas accept', async () => {
    const client = await connect();
    // listTools first: the SDK validates each structured result against the tool's output schema.
    await client.listTools();
    const { action: _g, ...guideArgs } = EXAMPLE_REQUESTS.guide;
    const guidance = await client.callTool({ name: 'request_guidance', arguments: guideArgs });
    expect(guidance.isError).toBeFalsy();
    expect(guidance.structuredContent).toMatchObject({ action: 'guide', non_binding: true });
    expect(textOf(guidance)).toEqual(guidance.structuredContent);
    const { action: _s, ...reviewArgs } = EXAMPLE_REQUESTS.summarize;
    const review = await client.callTool({ name: 'review_proposal_request', arguments: reviewArgs });
    expect(review.structuredContent).toMatchObject({ action: 'summarize', submitted: false });
    await client.close();
  });

  it('submits twice with one key: one stored request, one CRM delivery, one notice naming MCP and the client', async () => {
    const client = await connect();
    await client.listTools();
    const key = randomUUID();
    const call = () =>
      client.callTool({
        name: 'submit_proposal_request',
        arguments: submitArguments(key),
        _meta: { 'io.modelcontextprotocol/clientInfo': CLIENT },
      });
    const first = await call();
    const second = await call();
    expect(first.isError).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ status: 'received' });
    expect(second.structuredContent).toEqual(first.structuredContent);
    // The HTTP API's Idempotent-Replayed: true, as a tool result says it.
    expect(first._meta?.[REPLAYED_META]).toBeUndefined();
    expect(second._meta?.[REPLAYED_META]).toBe(true);
    expect((second.content as { text: string }[])[1]!.text).toMatch(/^Replayed: this idempotency_key/);
    const requestId = (first.structuredContent as { request_id: string }).request_id;

    const deliveries = crm.requests.filter((r) => r.body.includes(requestId));
    expect(deliveries).toHaveLength(1);
    // The CRM gets the door and the client's name; the hashed client address stays in the store.
    expect(JSON.parse(deliveries[0]!.body).source).toEqual({ channel: 'mcp', client: 'proposal-e2e-agent/1.4.2' });

    // The notice follows the reply (the invocation's waitUntil).
    const noticesOf = () => mailsTo(smtp.messages, SALES).filter((m) => m.raw.includes(requestId));
    await expect.poll(() => noticesOf().length, { timeout: 10_000 }).toBe(1);
    const notices = noticesOf();
    expect(notices).toHaveLength(1);
    expect(notices[0]!.raw.replace(/=\r?\n/g, '')).toContain(
      'Came through: MCP server (client: proposal-e2e-agent/1.4.2)',
    );

    const inbox = await promisify(execFile)('npm', ['run', '--silent', 'inbox'], { cwd: site.dir });
    const line = inbox.stdout.split('\n').find((l) => l.includes(requestId));
    expect(line).toMatch(/via mcp\b/);
    expect(line).toContain('client proposal-e2e-agent/1.4.2');
    // `network`: the hashed client address the per-client send limit counts, on the stored request only.
    const exported = await promisify(execFile)('npm', ['run', '--silent', 'inbox', '--', 'export'], { cwd: site.dir });
    const stored = (JSON.parse(exported.stdout) as Array<{ request_id: string; source: unknown }>).find(
      (r) => r.request_id === requestId,
    );
    expect(stored?.source).toEqual({
      channel: 'mcp',
      client: 'proposal-e2e-agent/1.4.2',
      network: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    await client.close();
  });

  it('without clientInfo in _meta, the client is named by its User-Agent product', async () => {
    const client = await connect({ 'user-agent': 'example-agent/0.9 (test)' });
    await client.listTools();
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: submitArguments(randomUUID(), 'UA Ltd'),
    });
    const requestId = (result.structuredContent as { request_id: string }).request_id;
    const payload = JSON.parse(crm.requests.find((r) => r.body.includes(requestId))!.body);
    expect(payload.source).toEqual({ channel: 'mcp', client: 'example-agent/0.9' });
    await client.close();
  });

  it('a refused request is an isError result with the problem details, and nothing is stored', async () => {
    const client = await connect();
    await client.listTools();
    const before = crm.requests.length;
    const noConsent = await client.callTool({
      name: 'submit_proposal_request',
      arguments: { ...submitArguments(randomUUID()), consent: false },
    });
    expect(noConsent.isError).toBe(true);
    expect(noConsent.structuredContent).toBeUndefined();
    expect(textOf(noConsent)).toMatchObject({ status: 422, type: expect.stringMatching(/#problem-consent-required$/) });

    const secret = await client.callTool({
      name: 'submit_proposal_request',
      arguments: { ...submitArguments(randomUUID()), constraints: 'Our key is AKIAIOSFODNN7EXAMPLE.' },
    });
    expect(textOf(secret)).toMatchObject({ status: 422, type: expect.stringMatching(/#problem-sensitive-data$/) });

    const noKey = await client.callTool({
      name: 'submit_proposal_request',
      arguments: { ...submitArguments(randomUUID()), idempotency_key: undefined },
    });
    expect(textOf(noKey)).toMatchObject({
      status: 400,
      type: expect.stringMatching(/#problem-missing-idempotency-key$/),
      title: 'An idempotency key is required',
      detail: expect.stringMatching(/the idempotency_key argument/),
    });
    // Missing with other fields, the key is listed with them.
    const { company: _c, email: _e, ...fewer } = submitArguments(randomUUID());
    const missing = await client.callTool({
      name: 'submit_proposal_request',
      arguments: { ...fewer, idempotency_key: undefined },
    });
    expect((textOf(missing).errors as { pointer: string }[]).map((e) => e.pointer)).toEqual(
      expect.arrayContaining(['#/email', '#/company', '#/idempotency_key']),
    );
    // Every refusal is in MCP's words: the argument, never the HTTP header or endpoint.
    for (const refusal of [noConsent, secret, noKey, missing]) {
      expect(JSON.stringify(refusal)).not.toMatch(/Idempotency-Key|header|GET \/api\/proposal|\{\\"action\\"/);
    }

    const reused = await client.callTool({
      name: 'submit_proposal_request',
      arguments: { ...submitArguments('one-key-two-bodies'), timeline: 'This year.' },
    });
    expect(reused.isError).toBeFalsy();
    const clash = await client.callTool({
      name: 'submit_proposal_request',
      arguments: { ...submitArguments('one-key-two-bodies'), timeline: 'Next year.' },
    });
    expect(textOf(clash)).toMatchObject({
      status: 422,
      type: expect.stringMatching(/#problem-idempotency-key-reused$/),
    });
    expect(crm.requests.length).toBe(before + 1);
    await client.close();
  });
});

describe('the HTTP edge of /mcp', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT },
  };
  const post = (headers: Record<string, string>) =>
    fetch(`${site.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(initialize),
    });

  it('initialize answers each 2025-era version with that version, any other with the newest 2025-era one', async () => {
    // Every version initialize speaks is one the official 1.x SDK knows too.
    for (const version of LEGACY_PROTOCOL_VERSIONS) expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(version);
    for (const version of [...LEGACY_PROTOCOL_VERSIONS, '2023-01-01', '2026-07-28']) {
      const res = await fetch(`${site.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ ...initialize, params: { ...initialize.params, protocolVersion: version } }),
      });
      const reply = (await rpcMessage(res)) as { result: { protocolVersion: string } };
      const known = (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version);
      expect(reply.result.protocolVersion, version).toBe(known ? version : LEGACY_PROTOCOL_VERSIONS[0]);
    }
  });

  it('refuses a foreign Origin with 403 and accepts its own', async () => {
    const foreign = await post({ origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    const own = await post({ origin: new URL(site.url).origin });
    expect(own.status).toBe(200);
    // A 2025-era reply: the SDK's stateless path answers with an event stream.
    expect(own.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(own.headers.get('mcp-session-id')).toBeNull();
  });

  // DNS rebinding through npm start: fetch cannot set Host, node:http can.
  it('refuses a foreign Host and Origin on /api/proposal as on /mcp, and answers its own', async () => {
    const status = (path: string, host: string, body: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(path, site.url);
        const headers = {
          host,
          origin: `http://${host}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        };
        const req = request(url, { method: 'POST', headers }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
        req.on('error', reject).end(body);
      });
    const guide = JSON.stringify(EXAMPLE_REQUESTS.guide);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(await status('/api/proposal', 'evil.example', guide)).toBe(403);
    expect(await status('/mcp', 'evil.example', ping)).toBe(403);
    expect(await status('/api/proposal', new URL(site.url).host, guide)).toBe(200);
  });

  it('refuses a 2025-era submit labelled tools/list by its Mcp-Method and Mcp-Name headers; nothing is stored', async () => {
    const before = crm.requests.length;
    const res = await fetch(`${site.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-method': 'tools/list',
        'mcp-name': 'request_guidance',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'submit_proposal_request', arguments: submitArguments(randomUUID()) },
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: 9, error: { code: -32020 } });
    expect(crm.requests.length).toBe(before);
  });

  it('the SDK client behind a foreign Origin cannot connect', async () => {
    await expect(connect({ origin: 'https://attacker.example' })).rejects.toThrow(/403|Forbidden/);
  });

  it('answers GET and DELETE with 405 and Allow, and an unsupported protocol version with 400', async () => {
    // GET from the CDN (a rewrite with status 405), DELETE from the function: the same answer.
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${site.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow'), method).toBe('POST, OPTIONS');
      expect(res.headers.get('content-type'), method).toMatch(/^application\/json/);
      expect(await res.json(), method).toEqual(METHOD_NOT_ALLOWED);
    }
    const res = await fetch(`${site.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '1999-01-01',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(400);
  });

  it("GET /mcp/server-card is the server card from the CDN, not /mcp's 405", async () => {
    const res = await fetch(`${site.url}/mcp/server-card`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { remotes: { url: string }[] };
    expect(new URL(card.remotes[0]!.url).pathname).toBe('/mcp');
  });

  it('GET /api/proposal is the contract file from the CDN, byte for byte what the build wrote', async () => {
    const res = await fetch(`${site.url}/api/proposal`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // netlify.toml's [[headers]] apply to static files only: this Link proves the function was not run.
    expect(res.headers.get('link')).toContain('rel="service-desc"');
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    expect(await res.text()).toBe(readFileSync(join(site.dir, 'dist/api/proposal.json'), 'utf8'));
  });
});

describe('the MCP Inspector CLI (@modelcontextprotocol/inspector)', () => {
  // Its catalog and settings go to a directory of the test's own, never the developer's home.
  const home = mkdtempSync(join(tmpdir(), 'inspector-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const inspector = (...args: string[]) =>
    promisify(execFile)(
      join(import.meta.dirname, '../../node_modules/.bin/mcp-inspector'),
      ['--cli', `${site.url}/mcp`, ...args],
      { env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'catalog.json') }, timeout: 60_000 },
    );

  it('lists the three tools, with no schema portability problem under --strict', async () => {
    const { stdout, stderr } = await inspector('--method', 'tools/list', '--strict');
    const { tools } = JSON.parse(stdout) as { tools: { name: string }[] };
    expect(tools.map((t) => t.name)).toEqual([
      'request_guidance',
      'review_proposal_request',
      'submit_proposal_request',
    ]);
    expect(stderr).not.toMatch(/Warning|Error/);
  });

  it('calls request_guidance and gets the structured guidance', async () => {
    const { stdout } = await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'request_guidance',
      '--tool-arg',
      'question=We want to move our data center to AWS.',
      'industry=logistics',
      'company_size=201-1000',
      'primary_need=not-sure',
    );
    const result = JSON.parse(stdout) as { isError?: boolean; structuredContent?: { action?: string } };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent?.action).toBe('guide');
  });
});
