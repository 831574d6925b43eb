/**
 * The one MCP compatibility file through `npm start`: what only a served /mcp shows. The official
 * MCP conformance suite (npm @modelcontextprotocol/conformance), the server scenarios that apply to a
 * stateless server with tools only (its other active scenarios call the reference server's own test
 * tools, prompts and resources); the MCP Inspector CLI; URL elicitation as a person meets it, the
 * partner's page confirmed in Chromium, for the SDK v2 client and for the SDK 1.x client's -32042;
 * and the CDN's edges of /mcp (GET's 405, /mcp/server-card) and of GET /api/proposal. Everything else the function answers
 * at /mcp is tested in-process: tests/built/mcp-clients.test.ts, mcp-consent.test.ts, mcp-tools.test.ts.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../scripts/local-site/browser.ts';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { METHOD_NOT_ALLOWED } from '../../src/contract/mcp-server.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;
const CLI = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');
const CLIENT = { name: 'consent-e2e-host', version: '2.0.1' };

let site: RunningSite;
let browser: Browser;
const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));

beforeAll(async () => {
  [site, browser] = await Promise.all([
    startSite({ CONSENT_SECRET: `conformance-consent-secret-${randomUUID()}` }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  rmSync(out, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Runs one scenario; its checks.json is the verdict (the CLI also exits non-zero on a failure). */
async function scenario(name: string): Promise<{ code: number; checks: Check[] }> {
  const dir = join(out, name);
  // The DNS rebinding scenario needs a loopback URL by name: localhost, 127.0.0.1 or [::1].
  const url = new URL('/mcp', site.url).href;
  const code = await promisify(execFile)(
    process.execPath,
    [CLI, 'server', '--url', url, '--scenario', name, '-o', dir],
    {
      timeout: 120_000,
    },
  ).then(
    () => 0,
    (error: { code?: number }) => error.code ?? 1,
  );
  const file = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('checks.json'));
  const checks = file ? (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Check[]) : [];
  return { code, checks };
}

describe('the MCP conformance suite, server scenarios of a tools-only stateless server', () => {
  for (const name of SCENARIOS) {
    it(`${name} passes`, async () => {
      const { code, checks } = await scenario(name);
      console.log(`${name}: ${checks.map((c) => `${c.id} ${c.status}`).join(', ')}`);
      expect(checks.length, name).toBeGreaterThan(0);
      expect(
        checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage}`),
        name,
      ).toEqual([]);
      expect(code, name).toBe(0);
    });
  }
});

describe('the MCP Inspector CLI (@modelcontextprotocol/inspector)', () => {
  // Its catalog and settings go to a directory of the test's own, never the developer's home.
  const home = mkdtempSync(join(tmpdir(), 'inspector-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const inspector = (...args: string[]) =>
    promisify(execFile)(
      join(import.meta.dirname, '../../node_modules/.bin/mcp-inspector'),
      ['--cli', `${site.url}/mcp`, ...args],
      { env: { ...process.env, HOME: home, MCP_CATALOG_PATH: join(home, 'catalog.json') }, timeout: 120_000 },
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

describe("URL elicitation: the person confirms on the partner's page in Chromium", () => {
  function submitArguments(company: string): Record<string, unknown> {
    const { action: _action, ...fields } = EXAMPLE_REQUESTS.submit;
    return { ...fields, company, email: `${randomUUID()}@example.com`, idempotency_key: randomUUID() };
  }

  /** Every stored request, read where `netlify serve` keeps the site's blobs. */
  function recordOf(company: string): ProposalRecord | undefined {
    const root = join(site.dir, '.netlify/blobs-serve/entries');
    return readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((p) => /proposals[\\/]requests[\\/][0-9a-f-]{36}$/.test(p))
      .map((p) => JSON.parse(readFileSync(join(root, p), 'utf8')) as ProposalRecord)
      .find((r) => r.contact.company === company);
  }

  const textOf = (result: unknown) =>
    JSON.parse((result as { content: { type: string; text: string }[] }).content[0]!.text) as Record<string, unknown>;

  /** Opens the link the client was given on this server (it names the production address) and presses "Yes". */
  async function pressYes(link: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
    const url = new URL(link);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${site.url}${url.pathname}${url.search}`);
    await page.getByRole('button', { name: 'Yes, this was me' }).click();
    await expect.poll(() => page.locator('#answer-result').textContent()).toContain('confirmed');
    return page;
  }

  it('SDK v2 on 2026-07-28: the page is opened, "Yes" pressed, then the request is submitted as url_page, vouched for by the host', async () => {
    const opened: string[] = [];
    const client = new ClientV2(CLIENT, {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: { url: {}, form: {} } },
    });
    let pressedBy = '';
    client.setRequestHandler('elicitation/create', (async (request: { params: Record<string, unknown> }) => {
      const link = String(request.params['url']);
      opened.push(new URL(link).pathname);
      expect(recordOf('Url Page Ltd')).toBeUndefined();
      const page = await pressYes(link, { width: 390, height: 844 });
      await page.screenshot({ path: '/tmp/i39-mcp-url-confirmed-phone.png', fullPage: true });
      await page.context().close();
      pressedBy = new Date().toISOString();
      return { action: 'accept' };
    }) as never);
    await client.connect(new StreamableHTTPClientTransportV2(new URL('/mcp', site.url)));
    const result = await client.callTool({
      name: 'submit_proposal_request',
      arguments: submitArguments('Url Page Ltd'),
    });
    await client.close();
    expect(opened).toEqual(['/confirm/yes']);
    expect(textOf(result)).toMatchObject({ status: 'received' });
    const consent = recordOf('Url Page Ltd')!.consent;
    expect(consent).toMatchObject({
      method: 'url_page',
      vouched_by: 'mcp_host',
      mcp: { protocol_version: '2026-07-28', client: 'consent-e2e-host/2.0.1' },
    });
    // The time of the press, not of the submit.
    expect(consent.confirmed_at! <= pressedBy).toBe(true);
  });

  it("the SDK 1.x client (2025-11-25) that declared URL elicitation: -32042 with the partner's page, confirmed in Chromium, then the retry submits", async () => {
    const client = new Client(CLIENT, { capabilities: { elicitation: { url: {}, form: {} } } });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', site.url));
    await client.connect(transport);
    // The initialize reply's session id is what the client declared, signed; the client sends it back.
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const call = { name: 'submit_proposal_request', arguments: submitArguments('Legacy Url Ltd') };
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
    expect(new URL(elicitation!.url).pathname).toBe('/confirm/yes');
    const page = await pressYes(elicitation!.url);
    await page.context().close();
    const result = await client.callTool(call);
    await client.close();
    expect(textOf(result)).toMatchObject({ status: 'received' });
    expect(recordOf('Legacy Url Ltd')!.consent).toMatchObject({
      method: 'url_page',
      vouched_by: 'mcp_host',
      // The name it declared at initialize, which its session carries.
      mcp: { protocol_version: '2025-11-25', client: 'consent-e2e-host/2.0.1' },
    });
  });
});

describe('the CDN edges of /mcp', () => {
  it("GET /mcp is the CDN's 405 with Allow and the JSON-RPC error, as the function answers DELETE", async () => {
    const res = await fetch(`${site.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(METHOD_NOT_ALLOWED);
  });

  it('GET /api/proposal is the contract file from the CDN, byte for byte what the build wrote', async () => {
    const res = await fetch(`${site.url}/api/proposal`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // netlify.toml's [[headers]] apply to static files only: this Link proves the function was not run.
    expect(res.headers.get('link')).toContain('rel="service-desc"');
    expect(await res.text()).toBe(readFileSync(join(site.dir, 'dist/api/proposal.json'), 'utf8'));
  });

  it("GET /mcp/server-card is the server card from the CDN, not /mcp's 405", async () => {
    const res = await fetch(`${site.url}/mcp/server-card`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as { remotes: { url: string }[] };
    expect(new URL(card.remotes[0]!.url).pathname).toBe('/mcp');
  });
});
