import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { CHROME_FLAGS, CHROME_PATH } from '../../scripts/local-site/browser.ts';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';

// The workspace's steps as WebMCP tools, in Debian's Chromium with WebMCP enabled, against
// `npm start`: the three tools carry the contract's request schemas, a tool call fills the
// visible form and returns the API's reply, and submit refuses to run without consent.
let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  [site, browser] = await Promise.all([
    startSite(),
    chromium.launch({ executablePath: CHROME_PATH, args: [...CHROME_FLAGS, '--enable-features=WebMCP'] }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

interface ToolView {
  name: string;
  required: string[];
  properties: string[];
  readOnly: boolean;
}

describe('the workspace as WebMCP tools', () => {
  it('registers request_guidance, review_proposal_request and submit_proposal_request with the contract schemas', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The definitions are in the page: registering them asks the server for nothing.
    const loads: string[] = [];
    page.on('request', (r) => loads.push(new URL(r.url()).pathname));
    await page.goto(`${site.url}/proposal`);
    const contract = (await (await fetch(`${site.url}/api/proposal`)).json()) as {
      actions: Record<string, { request_schema: { required: string[] } }>;
    };
    await page.waitForFunction(() => document.querySelector('form[toolname]') === null); // taken over by the script
    const tools = await page.evaluate(async () => {
      const context = (
        document as unknown as {
          modelContext: {
            getTools(): Promise<
              {
                name: string;
                title?: string;
                inputSchema: { required?: string[]; properties?: object } | string;
                annotations?: { readOnlyHint?: boolean };
              }[]
            >;
          };
        }
      ).modelContext;
      return (await context.getTools()).map((t) => {
        // Chromium hands the schema back as it was given or as its JSON text.
        const schema = typeof t.inputSchema === 'string' ? JSON.parse(t.inputSchema) : t.inputSchema;
        return {
          name: t.name,
          title: t.title,
          required: schema.required ?? [],
          properties: Object.keys(schema.properties ?? {}),
          readOnly: t.annotations?.readOnlyHint === true,
        };
      });
    });
    expect(loads.filter((path) => path.startsWith('/api/'))).toEqual([]);
    const byName = new Map<string, ToolView>(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual([
      'request_guidance',
      'review_proposal_request',
      'submit_proposal_request',
    ]);
    expect(byName.get('request_guidance')!.required).toEqual(
      contract.actions['guide']!.request_schema.required.filter((f) => f !== 'action'),
    );
    expect(byName.get('submit_proposal_request')!.required).toContain('consent');
    expect(byName.get('submit_proposal_request')!.properties).not.toContain('website');
    expect(byName.get('submit_proposal_request')!.readOnly).toBe(false);
    expect(byName.get('request_guidance')!.readOnly).toBe(true);
    console.log('WebMCP tools on /proposal:', JSON.stringify(tools.map((t) => [t.name, t.title])));
    expect(errors).toEqual([]);

    // A guidance call fills the form a person sees and answers with the API's reply; the request
    // names its channel, so a stored request says a WebMCP tool sent it.
    const channels: (string | undefined)[] = [];
    page.on('request', (r) => r.method() === 'POST' && channels.push(r.headers()['proposal-channel']));
    const question = 'We want to migrate our data center to AWS within a year.';
    const reply = await page.evaluate(async (q) => {
      const context = (
        document as unknown as {
          modelContext: {
            getTools(): Promise<{ name: string }[]>;
            executeTool(tool: object, input: object): Promise<string>;
          };
        }
      ).modelContext;
      const tool = (await context.getTools()).find((t) => t.name === 'request_guidance')!;
      return context.executeTool(tool, {
        question: q,
        industry: 'logistics',
        company_size: '201-1000',
        primary_need: 'cloud-engineering',
      });
    }, question);
    expect(reply).toContain('Cloud engineering and migration');
    expect(channels).toEqual(['webmcp']);
    expect(await page.inputValue('#f-question')).toBe(question);
    await page.locator('#o-guide h2').waitFor();

    // Submit without consent is refused by the tool itself; nothing is posted.
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    const refused = await page.evaluate(async () => {
      const context = (
        document as unknown as {
          modelContext: {
            getTools(): Promise<{ name: string }[]>;
            executeTool(tool: object, input: object): Promise<string>;
          };
        }
      ).modelContext;
      const tool = (await context.getTools()).find((t) => t.name === 'submit_proposal_request')!;
      return context.executeTool(tool, { name: 'Alex Doe', email: 'alex@example.com', company: 'Example' });
    });
    expect(refused).toContain('consent');
    expect(posts).toEqual([]);
    await page.close();
  });
});

describe('a tool the browser refuses', () => {
  it('leaves the form its declarative tool, and the other tools register', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The browser refuses one registration, as it would a duplicate name.
    await page.addInitScript(() => {
      const context = (document as unknown as { modelContext?: { registerTool: (...a: unknown[]) => unknown } })
        .modelContext;
      if (!context) return;
      const original = context.registerTool.bind(context);
      context.registerTool = (tool: unknown, options: unknown) =>
        (tool as { name: string }).name === 'review_proposal_request'
          ? Promise.reject(new DOMException('refused', 'InvalidStateError'))
          : original(tool, options);
    });
    await page.goto(`${site.url}/proposal`);
    await page.waitForFunction(() => document.querySelector('form[data-step="submit"][toolname]') === null);
    expect(await page.locator('form[data-step="summarize"]').getAttribute('toolname')).toBe('review_proposal_request');
    expect(await page.locator('form[data-step="guide"]').getAttribute('toolname')).toBeNull();
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the home page', () => {
  it('offers the guidance step as a declarative tool and ships no script', async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto(`${site.url}/`);
    const form = page.locator('form[toolname="request_guidance"]');
    await expect(form.getAttribute('action')).resolves.toBe('/api/proposal');
    expect(await form.locator('[toolparamdescription]').count()).toBe(4);
    const tools = await page.evaluate(async () =>
      (
        await (
          document as unknown as { modelContext: { getTools(): Promise<{ name: string }[]> } }
        ).modelContext.getTools()
      ).map((t) => t.name),
    );
    expect(tools).toEqual(['request_guidance']);
    expect(scripts).toEqual([]);
    await page.close();
  });

  it('"Ask a question" works without JavaScript: the reply is the guidance page with what was typed', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    const question = 'Where do we start with moving our shop to AWS?';
    await page.fill('#ask #f-question', question);
    await page.fill('#ask #f-industry', 'retail');
    await page.selectOption('#ask #f-company_size', '11-50');
    await page.selectOption('#ask #f-primary_need', 'not-sure');
    await Promise.all([page.waitForURL('**/api/proposal'), page.click('#ask button[type="submit"]')]);
    expect(await page.locator('h1').first().textContent()).toMatch(/Guidance/);
    expect(await page.inputValue('#f-question')).toBe(question);
    await context.close();
  });
});
