/**
 * The MCP endpoint as agents' clients meet it, in-process: the shipped function (its bundled SDK,
 * its store on a real local Blobs server, a webhook CRM and an SMTP server on loopback) and three
 * official clients talking to it through their `fetch` option: SDK v2 (@modelcontextprotocol/client)
 * pinned to 2026-07-28 and in auto mode, and SDK 1.x (@modelcontextprotocol/sdk, 2025-11-25). Each
 * lists the three tools and calls each with a valid and an invalid argument set. One key submitted
 * twice stores one request and the second result says it is a replay; refusals are isError results
 * with the problem, in MCP's words; a foreign Origin or Host and DELETE are refused at the edge; the
 * stored request names its channel and client in the CRM record, the sales notice and the store
 * (the inbox's line of it: tests/unit/request-source.test.ts). What only a server shows (the CDN's
 * GET /mcp, the conformance suite, the Inspector CLI): tests/e2e/mcp-conformance.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { LEGACY_PROTOCOL_VERSIONS, METHOD_NOT_ALLOWED } from '../../src/contract/mcp-server.ts';
import { REPLAYED_META } from '../../src/contract/tools.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import { restoreEnv, shippedFunction, SITE, storedRecords, type ShippedFunction } from '../helpers/shipped-function.ts';
import { mailsTo, startSmtp, type TestSmtp, readableMail } from '../helpers/smtp.ts';

const SALES = 'proposals@kestrelcloud.example';
const CLIENT = { name: 'proposal-e2e-agent', version: '1.4.2' };
const MCP = `${SITE}/mcp`;

let blobs: TestBlobs;
let crm: TestCrmServer;
let smtp: TestSmtp;
let fn: ShippedFunction;
let env: Record<string, string>;

beforeAll(async () => {
  [blobs, crm, smtp] = await Promise.all([startBlobs(), startCrmServer(), startSmtp()]);
  env = loopbackDeliveryEnv(crm, smtp);
  fn = await shippedFunction(env);
});

afterAll(async () => {
  restoreEnv(env);
  await Promise.all([crm?.stop(), smtp?.stop()]);
  await blobs?.stop();
});

/** A connected SDK 1.x client; `headers` are sent with every request. */
async function connect(headers: Record<string, string> = {}): Promise<Client> {
  return (await connectWith(headers)).client;
}

async function connectWith(headers: Record<string, string> = {}) {
  const client = new Client(CLIENT);
  const transport = new StreamableHTTPClientTransport(new URL(MCP), { requestInit: { headers }, fetch: fn.fetch });
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
  await client.connect(new StreamableHTTPClientTransportV2(new URL(MCP), { fetch: fn.fetch }));
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
    const res = await fn.handle(
      new Request(MCP, {
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
      }),
    );
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
    const guidance = await client.callTool({ name: 'request_guidance', arguments: GUIDE_ARGS });
    expect(guidance.isError).toBeFalsy();
    expect(guidance.structuredContent).toMatchObject({ action: 'guide', non_binding: true });
    expect(textOf(guidance)).toEqual(guidance.structuredContent);
    const review = await client.callTool({ name: 'review_proposal_request', arguments: REVIEW_ARGS });
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
    await fn.settle();
    const notices = mailsTo(smtp.messages, SALES).filter((m) => readableMail(m.raw).includes(requestId));
    expect(notices).toHaveLength(1);
    expect(readableMail(notices[0]!.raw).replace(/\s+/g, ' ')).toContain(
      'Came from: an AI assistant, through the MCP server (it calls itself proposal-e2e-agent/1.4.2)',
    );

    // `network`: the hashed client address the per-client send limit counts, on the stored request only.
    const stored = (await storedRecords()).filter((r) => r.request_id === requestId);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.source).toEqual({
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

    const reusedKey = `one-key-two-bodies-${randomUUID()}`;
    const reused = await client.callTool({
      name: 'submit_proposal_request',
      arguments: { ...submitArguments(reusedKey), timeline: 'This year.' },
    });
    expect(reused.isError).toBeFalsy();
    const clash = await client.callTool({
      name: 'submit_proposal_request',
      arguments: { ...submitArguments(reusedKey), timeline: 'Next year.' },
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
  const post = (headers: Record<string, string>, url = MCP, body: unknown = initialize) =>
    fn.handle(
      new Request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(body),
      }),
    );

  it('initialize answers each 2025-era version with that version, any other with the newest 2025-era one', async () => {
    // Every version initialize speaks is one the official 1.x SDK knows too.
    for (const version of LEGACY_PROTOCOL_VERSIONS) expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(version);
    for (const version of [...LEGACY_PROTOCOL_VERSIONS, '2023-01-01', '2026-07-28']) {
      const res = await post({}, MCP, { ...initialize, params: { ...initialize.params, protocolVersion: version } });
      const reply = (await rpcMessage(res)) as { result: { protocolVersion: string } };
      const known = (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version);
      expect(reply.result.protocolVersion, version).toBe(known ? version : LEGACY_PROTOCOL_VERSIONS[0]);
    }
  });

  it('refuses a foreign Origin with 403 and accepts its own', async () => {
    const foreign = await post({ origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    const own = await post({ origin: SITE });
    expect(own.status).toBe(200);
    // A 2025-era reply: the SDK's stateless path answers with an event stream.
    expect(own.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(own.headers.get('mcp-session-id')).toBeNull();
  });

  it('refuses a foreign Host and Origin on /api/proposal as on /mcp, and answers its own', async () => {
    const status = async (path: string, host: string, body: unknown) =>
      (await post({ host, origin: `http://${host}` }, `${SITE}${path}`, body)).status;
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    expect(await status('/api/proposal', 'evil.example', EXAMPLE_REQUESTS.guide)).toBe(403);
    expect(await status('/mcp', 'evil.example', ping)).toBe(403);
    expect((await post({ host: new URL(SITE).host }, `${SITE}/api/proposal`, EXAMPLE_REQUESTS.guide)).status).toBe(200);
  });

  it('refuses a 2025-era submit labelled tools/list by its Mcp-Method and Mcp-Name headers; nothing is stored', async () => {
    const before = crm.requests.length;
    const res = await post(
      { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/list', 'mcp-name': 'request_guidance' },
      MCP,
      {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'submit_proposal_request', arguments: submitArguments(randomUUID()) },
      },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: 9, error: { code: -32020 } });
    expect(crm.requests.length).toBe(before);
  });

  it('the SDK client behind a foreign Origin cannot connect', async () => {
    await expect(connect({ origin: 'https://attacker.example' })).rejects.toThrow(/403|Forbidden/);
  });

  it("answers DELETE with 405 and Allow (GET is the CDN's: tests/e2e/mcp-conformance.test.ts), and an unsupported protocol version with 400", async () => {
    const res = await fn.handle(new Request(MCP, { method: 'DELETE', headers: { accept: 'text/event-stream' } }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(METHOD_NOT_ALLOWED);
    const unsupported = await post({ 'mcp-protocol-version': '1999-01-01' }, MCP, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
    });
    expect(unsupported.status).toBe(400);
  });
});
