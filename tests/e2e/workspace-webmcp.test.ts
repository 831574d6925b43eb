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
                inputSchema: { required?: string[]; properties?: object };
                annotations?: { readOnlyHint?: boolean };
              }[]
            >;
          };
        }
      ).modelContext;
      return (await context.getTools()).map((t) => ({
        name: t.name,
        required: t.inputSchema.required ?? [],
        properties: Object.keys(t.inputSchema.properties ?? {}),
        readOnly: t.annotations?.readOnlyHint === true,
      }));
    });
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
    expect(errors).toEqual([]);

    // A guidance call fills the form a person sees and answers with the API's reply.
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
