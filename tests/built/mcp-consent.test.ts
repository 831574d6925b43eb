/**
 * Consent asked of the person over MCP, in-process: the shipped function with a CONSENT_SECRET, its
 * store on a real local Blobs server, and the official clients talking to it through their `fetch`
 * option. SDK v2 pinned to 2026-07-28 with a form-elicitation handler that accepts (mcp_form_elicitation,
 * vouched for by the host), declines or cancels (nothing submitted); with URL elicitation, where the
 * test presses "Yes" as the partner's page does (confirm_request with the grant's token): url_page,
 * vouched for by the host at the time of the press; SDK 1.x that declared URL elicitation (-32042, the
 * same page until pressed); clients without elicitation (agent_asserted); a tampered session id or
 * requestState, a requestState replayed for another draft, and a key already stored. The person's
 * page in Chromium: tests/e2e/mcp-conformance.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { readDist } from '../../scripts/local-site/dist.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { REPLAYED_META } from '../../src/contract/tools.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import {
  apiPost,
  restoreEnv,
  shippedFunction,
  SITE,
  storedRecords,
  type ShippedFunction,
} from '../helpers/shipped-function.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

const CLIENT = { name: 'consent-e2e-host', version: '2.0.1' };
const MCP = `${SITE}/mcp`;
const CONSENT_TEXT = (JSON.parse(readDist('api/proposal.json')) as { consent: { text: string } }).consent.text;

let blobs: TestBlobs;
let crm: TestCrmServer;
let smtp: TestSmtp;
let fn: ShippedFunction;
let env: Record<string, string>;

beforeAll(async () => {
  [blobs, crm, smtp] = await Promise.all([startBlobs(), startCrmServer(), startSmtp()]);
  env = { ...loopbackDeliveryEnv(crm, smtp), CONSENT_SECRET: `mcp-consent-secret-${randomUUID()}` };
  fn = await shippedFunction(env);
});

afterAll(async () => {
  restoreEnv(env);
  await Promise.all([crm?.stop(), smtp?.stop()]);
  await blobs?.stop();
});

/** The submit example as tool arguments, with an address of its own (each under its send limits). */
function submitArguments(key: string, company: string): Record<string, unknown> {
  const { action: _action, ...fields } = EXAMPLE_REQUESTS.submit;
  return { ...fields, company, email: `${randomUUID()}@example.com`, idempotency_key: key };
}

const recordOf = async (company: string) => (await storedRecords()).find((r) => r.contact.company === company);

type Elicit = (request: { params: Record<string, unknown> }) => Promise<Record<string, unknown>>;

async function formClient(
  answer: Elicit | undefined,
  elicitation: { form?: Record<string, never>; url?: Record<string, never> } = { form: {} },
) {
  const client = new ClientV2(CLIENT, {
    versionNegotiation: { mode: { pin: '2026-07-28' } },
    ...(answer && { capabilities: { elicitation } }),
  });
  if (answer) client.setRequestHandler('elicitation/create', answer as never);
  await client.connect(new StreamableHTTPClientTransportV2(new URL(MCP), { fetch: fn.fetch }));
  return client;
}

/** An SDK 1.x client, connected; `elicitation` is what it declares at initialize. */
async function legacyClient(elicitation?: { url: Record<string, never>; form: Record<string, never> }) {
  const client = new Client(CLIENT, elicitation ? { capabilities: { elicitation } } : {});
  const transport = new StreamableHTTPClientTransport(new URL(MCP), { fetch: fn.fetch });
  await client.connect(transport);
  return { client, transport };
}

const textOf = (result: unknown) =>
  JSON.parse((result as { content: { type: string; text: string }[] }).content[0]!.text) as Record<string, unknown>;

/** "Yes, this was me" pressed on the page a link opens: confirm_request with its request and token, as the page posts it. */
async function pressYes(link: string) {
  const url = new URL(link);
  expect(url.pathname).toBe('/confirm/yes');
  const res = await fn.handle(
    apiPost({
      action: 'confirm_request',
      request_id: url.searchParams.get('request'),
      token: url.searchParams.get('token'),
    }),
  );
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ status: 'confirmed' });
}

/** A raw 2026-07-28 tools/call of submit_proposal_request, with the envelope a form-eliciting client sends. */
async function rawSubmit(args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await fn.handle(
    new Request(MCP, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'submit_proposal_request',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: randomUUID(),
        method: 'tools/call',
        params: {
          name: 'submit_proposal_request',
          arguments: args,
          ...extra,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': CLIENT,
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
          },
        },
      }),
    }),
  );
  return rpcMessage(res);
}

describe('URL elicitation', () => {
  it('SDK v2 on 2026-07-28: the person presses "Yes" on the page before anything is stored; url_page, vouched for by the host, at the press', async () => {
    const opened: string[] = [];
    let pressed = { from: '', to: '' };
    const client = await formClient(
      async (request) => {
        const link = String(request.params['url']);
        opened.push(new URL(link).pathname);
        expect(await recordOf('Url Page Ltd')).toBeUndefined();
        pressed = { from: new Date().toISOString(), to: '' };
        await pressYes(link);
        pressed.to = new Date().toISOString();
        return { action: 'accept' };
      },
      { url: {}, form: {} },
    );
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: submitArguments(randomUUID(), 'Url Page Ltd'),
    });
    await client.close();
    expect(opened).toEqual(['/confirm/yes']);
    expect(textOf(result)).toMatchObject({ status: 'received' });
    const consent = (await recordOf('Url Page Ltd'))!.consent;
    expect(consent).toMatchObject({
      method: 'url_page',
      vouched_by: 'mcp_host',
      mcp: { protocol_version: '2026-07-28', client: 'consent-e2e-host/2.0.1' },
    });
    expect(consent.confirmed_at! >= pressed.from && consent.confirmed_at! <= pressed.to).toBe(true);
  });

  it('URL elicitation the person never confirms: the tool says so, the page is offered again on the next call, and nothing is stored', async () => {
    const pages: string[] = [];
    const client = await formClient(
      async (request) => {
        pages.push(String(request.params['url']));
        return { action: 'accept' };
      },
      { url: {} },
    );
    const call = { name: 'submit_proposal_request', arguments: submitArguments(randomUUID(), 'Never Confirmed Ltd') };
    const first = await client.callTool(call);
    const second = await client.callTool(call);
    await client.close();
    for (const result of [first, second]) {
      expect((result as { isError?: boolean }).isError).toBe(true);
      expect(textOf(result)).toMatchObject({
        status: 422,
        type: expect.stringMatching(/#problem-consent-required$/),
        detail: expect.stringMatching(/has not pressed "Yes"/),
      });
    }
    // Offered again: the same page, the same grant.
    expect(pages).toHaveLength(2);
    expect(pages[1]).toBe(pages[0]);
    expect(await recordOf('Never Confirmed Ltd')).toBeUndefined();
  });

  it("the SDK 1.x client (2025-11-25) that declared URL elicitation: -32042 with the partner's page until it is pressed, then the retry submits", async () => {
    const { client, transport } = await legacyClient({ url: {}, form: {} });
    // The initialize reply's session id is what the client declared, signed; the client sends it back.
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const call = { name: 'submit_proposal_request', arguments: submitArguments(randomUUID(), 'Legacy Url Ltd') };
    const [asked, again] = [
      await client.callTool(call).catch((e: unknown) => e),
      await client.callTool(call).catch((e: unknown) => e),
    ];
    for (const error of [asked, again]) expect(error).toBeInstanceOf(UrlElicitationRequiredError);
    const [elicitation] = (asked as UrlElicitationRequiredError).elicitations;
    expect(elicitation).toMatchObject({ mode: 'url', elicitationId: expect.any(String) });
    // Asked twice before the person confirmed: the same page, the same grant.
    expect((again as UrlElicitationRequiredError).elicitations[0]!.url).toBe(elicitation!.url);
    expect(await recordOf('Legacy Url Ltd')).toBeUndefined();
    await pressYes(elicitation!.url);
    const result = await client.callTool(call);
    await client.close();
    expect(textOf(result)).toMatchObject({ status: 'received' });
    expect((await recordOf('Legacy Url Ltd'))!.consent).toMatchObject({
      method: 'url_page',
      vouched_by: 'mcp_host',
      // The name it declared at initialize, which its session carries.
      mcp: { protocol_version: '2025-11-25', client: 'consent-e2e-host/2.0.1' },
    });
  });
});

describe('form elicitation', () => {
  it('a form handler that accepts: the text is shown word for word, the record says mcp_host', async () => {
    const shown: string[] = [];
    const client = await formClient(async (request) => {
      shown.push(String(request.params['message']));
      return { action: 'accept', content: { agree: true } };
    });
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: submitArguments(randomUUID(), 'Form Accept Ltd'),
    });
    await client.close();
    expect((result as { isError?: boolean }).isError).toBeFalsy();
    expect(textOf(result)).toMatchObject({ status: 'received' });
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain(CONSENT_TEXT);
    expect((await recordOf('Form Accept Ltd'))!.consent).toMatchObject({
      method: 'mcp_form_elicitation',
      vouched_by: 'mcp_host',
      channel: 'mcp',
      mcp: { protocol_version: '2026-07-28', client: 'consent-e2e-host/2.0.1' },
    });
  });

  for (const action of ['decline', 'cancel'] as const) {
    it(`a form handler that answers ${action}: nothing is submitted, and the tool says consent is required`, async () => {
      const company = `Form ${action} Ltd`;
      const client = await formClient(async () => ({ action }));
      const result = await client.callTool({
        name: 'submit_proposal_request',
        arguments: submitArguments(randomUUID(), company),
      });
      await client.close();
      expect((result as { isError?: boolean }).isError).toBe(true);
      expect(textOf(result)).toMatchObject({ status: 422, type: expect.stringMatching(/#problem-consent-required$/) });
      expect(await recordOf(company)).toBeUndefined();
    });
  }

  it('a key that already names a stored request answers with it, and the person is not asked', async () => {
    const args = submitArguments(randomUUID(), 'Stored First Ltd');
    const plain = await formClient(undefined);
    const first = await plain.callTool({ name: 'submit_proposal_request', arguments: args });
    await plain.close();
    expect(textOf(first)).toMatchObject({ status: 'received' });
    let asked = 0;
    const asking = await formClient(async () => {
      asked += 1;
      return { action: 'accept', content: { agree: true } };
    });
    const again = await asking.callTool({ name: 'submit_proposal_request', arguments: args });
    await asking.close();
    expect(asked).toBe(0);
    expect(textOf(again)).toEqual(textOf(first));
    expect((again as { _meta?: Record<string, unknown> })._meta?.[REPLAYED_META]).toBe(true);
    expect((await storedRecords()).filter((r) => r.contact.company === 'Stored First Ltd')).toHaveLength(1);
  });

  it('a tampered requestState is refused; one replayed for another draft is refused; for the same draft the key submits once', async () => {
    const args = submitArguments(randomUUID(), 'Raw State Ltd');
    const first = await rawSubmit(args);
    const { requestState, inputRequests } = first.result as {
      requestState: string;
      inputRequests: Record<string, unknown>;
    };
    expect(Object.keys(inputRequests)).toEqual(['consent']);
    const accept = { inputResponses: { consent: { action: 'accept', content: { agree: true } } } };

    const tampered = `${requestState.slice(0, -3)}${requestState.endsWith('A') ? 'BBB' : 'AAA'}`;
    const refused = await rawSubmit(args, { ...accept, requestState: tampered });
    expect(refused.error).toMatchObject({ code: -32602 });
    expect(await recordOf('Raw State Ltd')).toBeUndefined();

    const otherDraft = await rawSubmit({ ...args, company: 'Changed Draft Ltd' }, { ...accept, requestState });
    expect(textOf(otherDraft.result)).toMatchObject({ type: expect.stringMatching(/#problem-invalid-request$/) });
    expect(await recordOf('Changed Draft Ltd')).toBeUndefined();

    const done = await rawSubmit(args, { ...accept, requestState });
    expect(textOf(done.result)).toMatchObject({ status: 'received' });
    const again = await rawSubmit(args, { ...accept, requestState });
    expect(again.result._meta?.[REPLAYED_META]).toBe(true);
    expect((await storedRecords()).filter((r) => r.contact.company === 'Raw State Ltd')).toHaveLength(1);
    expect((await recordOf('Raw State Ltd'))!.consent.method).toBe('mcp_form_elicitation');
  });
});

describe('clients without elicitation', () => {
  it('the SDK 1.x client without elicitation submits agent_asserted, under the name it declared', async () => {
    const { client } = await legacyClient();
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: submitArguments(randomUUID(), 'Legacy Plain Ltd'),
    });
    await client.close();
    expect(textOf(result)).toMatchObject({ status: 'received' });
    expect((await recordOf('Legacy Plain Ltd'))!.consent).toMatchObject({
      method: 'agent_asserted',
      vouched_by: 'agent',
      mcp: { protocol_version: '2025-11-25', client: 'consent-e2e-host/2.0.1' },
    });
  });

  it('a 2025-era request with a tampered session id is answered 404, as for an unknown session', async () => {
    const { client, transport } = await legacyClient();
    const res = await fn.handle(
      new Request(MCP, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          'mcp-session-id': `${transport.sessionId!.slice(0, -2)}AA`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    await client.close();
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
  });

  it('a 2026-07-28 client without elicitation submits as before: agent_asserted, the agent vouches', async () => {
    const client = await formClient(undefined);
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: submitArguments(randomUUID(), 'No Elicit Ltd'),
    });
    await client.close();
    expect(textOf(result)).toMatchObject({ status: 'received' });
    // The reply tells the agent the person can still confirm, or say "Not me", from the email.
    expect(textOf(result)['message']).toContain('"Yes, this was me"');
    expect((await recordOf('No Elicit Ltd'))!.consent).toMatchObject({
      method: 'agent_asserted',
      vouched_by: 'agent',
      mcp: { protocol_version: '2026-07-28', client: 'consent-e2e-host/2.0.1' },
    });
  });
});
