/**
 * Consent asked of the person over MCP, through `npm start`: the official SDK v2 client pinned to
 * 2026-07-28 with a form-elicitation handler that accepts (mcp_form_elicitation, vouched for by the
 * host) and one that declines (nothing submitted); a client without elicitation (agent_asserted);
 * a tampered requestState (refused by the SDK's codec) and one replayed for another draft (refused)
 * or for the same one (the key's stored result, submitted once).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../scripts/local-site/browser.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';

const CLIENT = { name: 'consent-e2e-host', version: '2.0.1' };
let site: RunningSite;
let crm: TestCrmServer;
let smtp: TestSmtp;
let browser: Browser;

beforeAll(async () => {
  [crm, smtp, browser] = await Promise.all([startCrmServer(), startSmtp(), launchBrowser()]);
  site = await startSite({ ...loopbackDeliveryEnv(crm, smtp), CONSENT_SECRET: `mcp-consent-secret-${randomUUID()}` });
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await Promise.all([crm?.stop(), smtp?.stop()]);
});

function submitArguments(key: string, company: string): Record<string, unknown> {
  const { action: _action, ...fields } = EXAMPLE_REQUESTS.submit;
  return { ...fields, company, idempotency_key: key };
}

/** Every stored request, read where `netlify serve` keeps the site's blobs. */
function storedRecords(): ProposalRecord[] {
  const root = join(site.dir, '.netlify/blobs-serve/entries');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((p) => /proposals[\\/]requests[\\/][0-9a-f-]{36}$/.test(p))
    .map((p) => JSON.parse(readFileSync(join(root, p), 'utf8')) as ProposalRecord);
}
const recordOf = (company: string) => storedRecords().find((r) => r.contact.company === company);

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
  await client.connect(new StreamableHTTPClientTransportV2(new URL('/mcp', site.url)));
  return client;
}

const textOf = (result: unknown) =>
  JSON.parse((result as { content: { type: string; text: string }[] }).content[0]!.text) as Record<string, unknown>;

/** A raw 2026-07-28 tools/call of submit_proposal_request, with the envelope a form-eliciting client sends. */
async function rawSubmit(args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${site.url}/mcp`, {
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
  });
  return rpcMessage(res);
}

describe('consent over MCP', () => {
  it("SDK v2 on 2026-07-28 with URL elicitation: the person confirms on the partner's page in Chromium, then the request is submitted first_party", async () => {
    const opened: string[] = [];
    const client = await formClient(
      async (request) => {
        const url = new URL(String(request.params['url']));
        opened.push(url.pathname);
        // The link names the partner's site (its production address); this server serves the same page.
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        await page.goto(`${site.url}${url.pathname}${url.search}`);
        expect(recordOf('Url Page Ltd')).toBeUndefined();
        await page.getByRole('button', { name: 'Yes, this was me' }).click();
        await expect.poll(() => page.locator('#answer-result').textContent()).toContain('confirmed');
        await page.screenshot({ path: '/tmp/i39-mcp-url-confirmed-phone.png', fullPage: true });
        await context.close();
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
    expect(recordOf('Url Page Ltd')!.consent).toMatchObject({
      method: 'url_page',
      vouched_by: 'first_party',
      mcp: { protocol_version: '2026-07-28', client: 'consent-e2e-host/2.0.1' },
    });
  });

  it('URL elicitation the person never confirms: the page is offered again and nothing is stored', async () => {
    let asked = 0;
    const client = await formClient(
      async () => {
        asked += 1;
        return { action: 'accept' };
      },
      { url: {} },
    );
    const result = await client
      .callTool({ name: 'submit_proposal_request', arguments: submitArguments(randomUUID(), 'Never Confirmed Ltd') })
      .catch((error: unknown) => error);
    await client.close();
    expect(asked).toBeGreaterThan(1);
    expect(result).toBeDefined();
    expect(recordOf('Never Confirmed Ltd')).toBeUndefined();
  });

  it('SDK v2 on 2026-07-28 with a form handler that accepts: the text is shown word for word, the record says mcp_host', async () => {
    const consent = ((await (await fetch(`${site.url}/api/proposal`)).json()) as { consent: { text: string } }).consent;
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
    expect(shown[0]).toContain(consent.text);
    expect(recordOf('Form Accept Ltd')!.consent).toMatchObject({
      method: 'mcp_form_elicitation',
      vouched_by: 'mcp_host',
      channel: 'mcp',
      mcp: { protocol_version: '2026-07-28', client: 'consent-e2e-host/2.0.1' },
    });
  });

  it('a form handler that declines: nothing is submitted, and the tool says consent is required', async () => {
    const client = await formClient(async () => ({ action: 'decline' }));
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: submitArguments(randomUUID(), 'Form Decline Ltd'),
    });
    await client.close();
    expect((result as { isError?: boolean }).isError).toBe(true);
    expect(textOf(result)).toMatchObject({ status: 422, type: expect.stringMatching(/#problem-consent-required$/) });
    expect(recordOf('Form Decline Ltd')).toBeUndefined();
  });

  it("the SDK 1.x client (2025-11-25) that declared URL elicitation: -32042 with the partner's page, confirmed in Chromium, then the retry submits first_party", async () => {
    const client = new Client(CLIENT, { capabilities: { elicitation: { url: {}, form: {} } } });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', site.url));
    await client.connect(transport);
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
    expect(recordOf('Legacy Url Ltd')).toBeUndefined();
    const url = new URL(elicitation!.url);
    expect(url.pathname).toBe('/confirm/yes');
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}${url.pathname}${url.search}`);
    await page.getByRole('button', { name: 'Yes, this was me' }).click();
    await expect.poll(() => page.locator('#answer-result').textContent()).toContain('confirmed');
    await context.close();
    const result = await client.callTool(call);
    await client.close();
    expect(textOf(result)).toMatchObject({ status: 'received' });
    expect(recordOf('Legacy Url Ltd')!.consent).toMatchObject({
      method: 'url_page',
      vouched_by: 'first_party',
      // The name it declared at initialize, which its session carries.
      mcp: { protocol_version: '2025-11-25', client: 'consent-e2e-host/2.0.1' },
    });
  });

  it('the SDK 1.x client without elicitation submits agent_asserted, under the name it declared', async () => {
    const client = new Client(CLIENT);
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', site.url)));
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: { ...submitArguments(randomUUID(), 'Legacy Plain Ltd'), email: 'legacy-plain@example.com' },
    });
    await client.close();
    expect(textOf(result)).toMatchObject({ status: 'received' });
    expect(recordOf('Legacy Plain Ltd')!.consent).toMatchObject({
      method: 'agent_asserted',
      vouched_by: 'agent',
      mcp: { protocol_version: '2025-11-25', client: 'consent-e2e-host/2.0.1' },
    });
  });

  it('a 2025-era request with a tampered session id is answered 404, as for an unknown session', async () => {
    const client = new Client(CLIENT);
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', site.url));
    await client.connect(transport);
    const res = await fetch(`${site.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'mcp-session-id': `${transport.sessionId!.slice(0, -2)}AA`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    await client.close();
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
  });

  it('a client without elicitation submits as before: agent_asserted, the agent vouches', async () => {
    const client = await formClient(undefined);
    const result = await client.callTool({
      name: 'submit_proposal_request',
      // An address of its own: the example's is past its daily confirmation limit by now.
      arguments: { ...submitArguments(randomUUID(), 'No Elicit Ltd'), email: 'no-elicit@example.com' },
    });
    await client.close();
    expect(textOf(result)).toMatchObject({ status: 'received' });
    // The reply tells the agent the person can still confirm, or say "Not me", from the email.
    expect(textOf(result)['message']).toContain('"Yes, this was me"');
    expect(recordOf('No Elicit Ltd')!.consent).toMatchObject({
      method: 'agent_asserted',
      vouched_by: 'agent',
      mcp: { protocol_version: '2026-07-28', client: 'consent-e2e-host/2.0.1' },
    });
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
    expect(recordOf('Raw State Ltd')).toBeUndefined();

    const otherDraft = await rawSubmit({ ...args, company: 'Changed Draft Ltd' }, { ...accept, requestState });
    expect(textOf(otherDraft.result)).toMatchObject({ type: expect.stringMatching(/#problem-invalid-request$/) });
    expect(recordOf('Changed Draft Ltd')).toBeUndefined();

    const done = await rawSubmit(args, { ...accept, requestState });
    expect(textOf(done.result)).toMatchObject({ status: 'received' });
    const again = await rawSubmit(args, { ...accept, requestState });
    expect(again.result._meta?.['io.kestrelcloud/idempotent-replayed']).toBe(true);
    expect(storedRecords().filter((r) => r.contact.company === 'Raw State Ltd')).toHaveLength(1);
    expect(recordOf('Raw State Ltd')!.consent.method).toBe('mcp_form_elicitation');
  });
});
