import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_MISSING } from '../../src/shared/workspace/reply-view.ts';
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from '../../scripts/local-site/browser.ts';
import { OK, startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { root } from '../../scripts/local-site/dist.ts';
import { luhnValid } from '../../src/shared/sensitive-data/identifiers.ts';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// The proposal workspace in Debian's Chromium against `npm start`, with a real SMTP server and
// a CRM webhook receiver on loopback, so "received" and "email sent" are the real outcomes.
let site: RunningSite;
let smtp: TestSmtp;
let crm: TestCrmServer;
let browser: Browser;
let consent: { text: string; version: string };
let disclaimer: string;
const contexts: BrowserContext[] = [];
const shots = join(root, 'test-results');
/** The boxes of steps 1 to 4: two <details> steps, then the review and send panels. */
const STEP_BOXES = [
  '#step-guide',
  '#step-request',
  '.ws-side > .panel:nth-of-type(1)',
  '.ws-side > .panel:nth-of-type(2)',
];
/** A step's box when named (readable at full size), else the whole page. */
const shot = (page: Page, name: string, step?: number) => {
  const path = join(shots, `workspace-${name}.png`);
  return step ? page.locator(STEP_BOXES[step - 1]!).screenshot({ path }) : page.screenshot({ path, fullPage: true });
};

/** Steps 1 and 2 are <details> that open one after another; open one to fill it in. */
async function openStep(page: Page, step: 'guide' | 'request'): Promise<void> {
  if ((await page.locator(`#step-${step}`).getAttribute('open')) === null) await page.click(`#step-${step} > summary`);
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  [smtp, crm, browser] = await Promise.all([startSmtp(), startCrmServer(), launchBrowser()]);
  site = await startSite({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Kestrel Cloud <no-reply@kestrelcloud.example>',
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${crm.url}/crm`,
    CRM_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    // A pending request's next CRM attempt (and the page's next re-post) in 2 s, not the default 60.
    REDELIVERY_BACKOFF_SECONDS: '2',
  });
  consent = (await (await fetch(`${site.url}/api/proposal`)).json()).consent;
  disclaimer = (await (await fetch(`${site.url}/api/capabilities`)).json()).cloud_program_support.disclaimer;
});

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await site?.stop();
  await crm?.stop();
  await smtp?.stop();
});

interface Opened {
  page: Page;
  /** Console errors and uncaught exceptions, e.g. a CSP refusal. */
  problems: string[];
  /** Bodies and headers of every POST /api/proposal the page made. */
  posts: { headers: Record<string, string>; body: unknown }[];
}

/**
 * The API refuses a submit sent within MIN_FILL_MS of form_started_at (bot protection, src/proposal/actions/pipeline.ts).
 * The page's clock runs this far behind the server's, as if the person opened the page a minute
 * before: its form_started_at is then old enough at once, and no test waits out the fill time.
 */
const PAGE_OPENED_EARLIER_MS = 60_000;

async function open(options: BrowserContextOptions = {}): Promise<Opened> {
  const context = await browser.newContext(options);
  contexts.push(context);
  // Time still flows in the page (timers fire as usual); it only starts a minute earlier.
  await context.clock.install({ time: Date.now() - PAGE_OPENED_EARLIER_MS });
  const page = await context.newPage();
  const problems: string[] = [];
  const posts: Opened['posts'] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/proposal') {
      const body: unknown = r.headers()['content-type']?.includes('json') ? r.postDataJSON() : r.postData();
      posts.push({ headers: r.headers(), body });
    }
  });
  await page.goto(`${site.url}/proposal`);
  return { page, problems, posts };
}

const uniqueEmail = () => `ws-${randomUUID()}@example.com`;
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
const crmRecordsFor = (email: string) => crm.requests.filter((r) => r.body.includes(email));

const STEP1 = {
  question: 'We want a generative AI assistant in our contact center without exposing customer data.',
  industry: 'insurance',
};
const STEP2 = {
  business_outcome: 'Cut average handle time by 20% with an AI assistant for agents.',
  current_environment: 'Contact center in one region; CRM on premises.',
  blocker: 'No safe way to give the model customer context.',
  timeline: 'Pilot in 10 weeks.',
  constraints: 'Customer data stays in the EU; SOC 2 controls apply.',
};

async function fillStep1(page: Page): Promise<void> {
  await openStep(page, 'guide');
  await page.fill('#f-question', STEP1.question);
  await page.fill('#f-industry', STEP1.industry);
  await page.selectOption('#f-company_size', '201-1000');
  await page.selectOption('#f-primary_need', 'genai-and-contact-center');
}

async function fillStep2(page: Page, email: string, skip: string[] = []): Promise<void> {
  await openStep(page, 'request');
  for (const [name, value] of Object.entries(STEP2)) if (!skip.includes(name)) await page.fill(`#f-${name}`, value);
  await page.selectOption('#f-engagement_model', 'defined-project');
  await page.fill('#f-name', 'Alex Doe');
  await page.fill('#f-email', email);
  await page.fill('#f-company', 'Example Insurance');
}

/** Steps 1 and 2 filled and consent ticked. */
async function fillReadyToSend(page: Page, email: string): Promise<void> {
  await fillStep1(page);
  await fillStep2(page, email);
  await page.check('#f-consent');
}

const draftKey = (page: Page) =>
  page.evaluate(() => (JSON.parse(sessionStorage.getItem('proposal-workspace-draft') ?? '{}') as { key?: string }).key);
const heading = (page: Page, step: string) => page.locator(`#o-${step} h2`).first();
const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe('the proposal workspace in a browser', () => {
  it('goes from question to a received request, with exactly one confirmation email', async () => {
    const { page, problems, posts } = await open();
    const email = uniqueEmail();

    await fillStep1(page);
    await page.click('button[value="guide"]');
    await heading(page, 'guide').waitFor();
    const guidance = await page.locator('#o-guide').innerText();
    expect(guidance).toContain('Capabilities that fit');
    expect(guidance).toContain('Generative AI and contact center');
    expect(guidance).toContain('may qualify');
    expect(guidance).toContain(disclaimer);
    expect(guidance).not.toMatch(/you (will|are) (receive|get|approved|eligible)/i);
    expect(await page.inputValue('#f-engagement_model')).not.toBe(''); // the suggested model, preselected
    await shot(page, '1-guide', 1);

    await fillStep2(page, email, ['blocker']);
    await shot(page, '2-describe', 2);
    await page.click('button[value="summarize"]');
    await heading(page, 'summarize').waitFor();
    const missing = page.locator('#o-summarize a', { hasText: 'Blocker or risk' });
    await missing.click();
    expect(await activeId(page)).toBe('f-blocker');
    await page.fill('#f-blocker', STEP2.blocker);
    await page.click('button[value="summarize"]');
    await page.locator('#o-summarize', { hasText: 'Ready to send' }).waitFor();
    const review = await page.locator('#o-summarize').innerText();
    expect(review).toContain('Nothing has been sent yet');
    // Selects as people read them: the option's text, not its id.
    const [modelId, modelName] = await page.$eval('#f-engagement_model', (s: HTMLSelectElement) => [
      s.value,
      s.selectedOptions[0]?.text ?? '',
    ]);
    expect(review).toContain(modelName);
    expect(review).not.toContain(modelId);
    expect(review).toContain('201-1000 employees');
    await shot(page, '3-review', 3);

    expect(await page.isChecked('#f-consent')).toBe(false);
    expect((await page.locator('label[for="f-consent"]').innerText()).trim()).toBe(consent.text);
    expect(await page.locator('#h-consent').innerText()).toContain(consent.version);
    await page.check('#f-consent');
    await page.click('button[value="submit"]');
    await page.locator('#o-submit h2', { hasText: 'Request received' }).waitFor();
    expect(await page.locator('#o-submit').innerText()).toContain(`A confirmation email was sent to ${email}.`);
    await shot(page, '4-received', 4);

    const key = await draftKey(page);
    const submit = posts.find((p) => (p.body as { action?: string }).action === 'submit')!;
    expect(submit.headers['idempotency-key']).toBe(key);
    expect(submit.body).toMatchObject({
      consent: true,
      consent_version: consent.version,
      email,
      engagement_model: 'defined-project',
    });
    expect(mailsTo(email)).toHaveLength(1);
    expect(crmRecordsFor(email)).toHaveLength(1);

    // Only choosing to start over gives the draft a new key.
    await page.click('#o-submit button:has-text("Start a new request")');
    expect(await draftKey(page)).not.toBe(key);
    expect(await page.inputValue('#f-email')).toBe('');
    expect(await activeId(page)).toBe('f-question');
    expect(problems).toEqual([]); // no CSP refusals, no script errors
  });

  it('flags a likely secret at its field before sending, and shows the server refusing one it missed', async () => {
    const { page, posts } = await open();
    await fillStep2(page, uniqueEmail());
    const accessKey = `AKIA${randomBytes(16).toString('hex').toUpperCase().slice(0, 16)}`;
    await page.fill('#f-current_environment', `Deploys run with ${accessKey} today.`);
    await expect
      .poll(() => page.locator('#e-current_environment').innerText())
      .toContain('looks like a cloud access key');
    await page.click('button[value="summarize"]');
    await expect.poll(() => page.locator('#m-summarize').innerText()).toContain('Nothing was sent');
    expect(posts).toHaveLength(0);

    // A Slack bot token: the browser's small check does not know it, the server's guard does.
    const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');
    // The 13-digit group must fail the Luhn check, or the browser's card check would flag it first.
    const notLuhn = (n: number) => {
      const d = digits(n);
      return luhnValid(d) ? `${d.slice(0, -1)}${(Number(d.at(-1)) + 1) % 10}` : d;
    };
    const token = `xoxb-${digits(12)}-${notLuhn(13)}-${randomBytes(18).toString('base64url').replace(/[-_]/g, 'x').slice(0, 24)}`;
    await page.fill('#f-current_environment', STEP2.current_environment);
    await page.fill('#f-constraints', `Alerts go to Slack through the bot ${token}, please keep it.`);
    expect(await page.locator('#e-constraints').count()).toBe(0);
    await page.click('button[value="summarize"]');
    const error = page.locator('#e-constraints');
    await error.waitFor();
    expect(await error.innerText()).toMatch(/looks like .+; remove it/);
    const field = page.locator('#f-constraints');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.getAttribute('aria-describedby')).toContain('e-constraints');
    expect(await page.locator('#m-summarize').innerText()).toContain('Check: Security, reliability');
    expect(await activeId(page)).toBe('f-constraints');
    expect(await page.locator('#o-summarize').innerText()).not.toContain(token);
    await shot(page, 'error-secret', 2);
    await shot(page, 'error-secret-summary', 3);
  });

  it('a double click on send makes exactly one CRM record', async () => {
    const { page, posts } = await open();
    const email = uniqueEmail();
    await fillReadyToSend(page, email);
    await page.dblclick('button[value="submit"]');
    await page.locator('#o-submit h2', { hasText: 'Request received' }).waitFor();
    expect(posts.filter((p) => (p.body as { action?: string }).action === 'submit')).toHaveLength(1);
    expect(crmRecordsFor(email)).toHaveLength(1);

    // Sending the same draft again replays the answer: still one record, one email.
    const replay = page.waitForResponse((r) => r.url().endsWith('/api/proposal'));
    await page.click('button[value="submit"]');
    expect((await replay).headers()['idempotent-replayed']).toBe('true');
    expect(crmRecordsFor(email)).toHaveLength(1);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('a lost response shows a retry button, and the retry makes no second record', async () => {
    const { page, posts } = await open();
    const email = uniqueEmail();
    await fillReadyToSend(page, email);
    // The request reaches the server, the answer never reaches the page.
    await page.route(
      '**/api/proposal',
      async (route) => {
        await route.fetch();
        await route.abort('connectionreset');
      },
      { times: 1 },
    );
    await page.click('button[value="submit"]');
    await page.locator('#o-submit h2', { hasText: 'Could not reach the server' }).waitFor();
    expect(crmRecordsFor(email)).toHaveLength(1);
    await shot(page, '4-network-error', 4);

    await page.click('#o-submit button:has-text("Try again")');
    await page.locator('#o-submit h2', { hasText: 'Request received' }).waitFor();
    const key = await draftKey(page);
    const submits = posts.filter((p) => (p.body as { action?: string }).action === 'submit');
    expect(submits.map((p) => p.headers['idempotency-key'])).toEqual([key, key]);
    expect(crmRecordsFor(email)).toHaveLength(1);
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('a pending request says so, and the page keeps trying with the same key until it is received', async () => {
    const { page, posts } = await open();
    const email = uniqueEmail();
    await fillReadyToSend(page, email);
    crm.behave({ kind: 'status', status: 429, headers: { 'retry-after': '2' } });
    try {
      await page.click('button[value="submit"]');
      await page.locator('#o-submit h2', { hasText: 'Stored, delivery pending' }).waitFor();
      const text = await page.locator('#o-submit').innerText();
      expect(text).toContain('We will keep trying');
      expect(text).toContain('No confirmation email has been sent yet.');
      expect(text).not.toContain('received');
      await shot(page, '4-pending', 4);
    } finally {
      crm.behave(OK);
    }
    await page.locator('#o-submit h2', { hasText: 'Request received' }).waitFor({ timeout: 15_000 });
    const key = await draftKey(page);
    const submits = posts.filter((p) => (p.body as { action?: string }).action === 'submit');
    expect(submits.length).toBe(2);
    expect(submits.every((p) => p.headers['idempotency-key'] === key)).toBe(true);
    expect(crmRecordsFor(email)).toHaveLength(2); // refused once, accepted once
    expect(mailsTo(email)).toHaveLength(1);
  });

  it('a reload keeps the draft and its key, and sending then uses that key', async () => {
    const { page, posts } = await open();
    const email = uniqueEmail();
    await fillStep1(page);
    await fillStep2(page, email);
    const key = await draftKey(page);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);

    await page.reload();
    expect(await draftKey(page)).toBe(key);
    expect(await page.inputValue('input[name="idempotency_key"]')).toBe(key);
    expect(await page.inputValue('#f-question')).toBe(STEP1.question);
    expect(await page.inputValue('#f-primary_need')).toBe('genai-and-contact-center');
    expect(await page.inputValue('#f-timeline')).toBe(STEP2.timeline);
    expect(await page.inputValue('#f-email')).toBe(email);
    expect(await page.isChecked('#f-consent')).toBe(false); // consent is given when sending, never restored

    await page.check('#f-consent');
    await page.click('button[value="submit"]');
    await page.locator('#o-submit h2', { hasText: 'Request received' }).waitFor();
    expect(posts.at(-1)?.headers['idempotency-key']).toBe(key);
    expect(crmRecordsFor(email)).toHaveLength(1);
  });

  it('says the same guidance with JavaScript and without (one reply view)', async () => {
    const words = (text: string) => text.replace(/\s+/g, ' ').trim();
    const say = async (javaScriptEnabled: boolean) => {
      const { page } = await open({ javaScriptEnabled });
      await fillStep1(page);
      await page.click('button[value="guide"]');
      if (javaScriptEnabled) {
        await heading(page, 'guide').waitFor();
        return words(await page.locator('#o-guide').innerText());
      }
      await page.locator('h1', { hasText: 'Guidance for your question' }).waitFor();
      return words(await page.locator('.reply').innerText()).replace(/ Continue with step 2 below; .*$/, '');
    };
    const [withScript, withoutScript] = [await say(true), await say(false)];
    expect(withoutScript).toContain('Capabilities that fit');
    expect(withoutScript).toContain('Prepare');
    // The panel adds only its title above and its button below the shared view.
    expect(withScript).toContain(withoutScript);
    expect(withScript.replace(withoutScript, '|')).toMatch(/^Guidance for your question \|.{0,60}$/);
  });

  it('works without JavaScript: every reply is the workspace again, in the site frame, with everything typed', async () => {
    const { page } = await open({ javaScriptEnabled: false });
    const email = uniqueEmail();
    await fillStep1(page);
    await page.click('button[value="guide"]');
    await page.locator('h1', { hasText: 'Guidance for your question' }).waitFor();
    expect(await page.locator('main').innerText()).toContain(disclaimer);
    expect(await page.locator('.site-header .cta').isVisible()).toBe(true);
    expect(await page.locator('.site-footer').isVisible()).toBe(true);
    // Step 1 kept, step 2 open next, with the suggested model preselected in people's words.
    expect(await page.inputValue('#f-question')).toBe(STEP1.question);
    expect(await page.inputValue('#f-company_size')).toBe('201-1000');
    expect(await page.locator('#step-request').getAttribute('open')).not.toBeNull();
    await shot(page, 'nojs-guide');

    await fillStep2(page, email, ['blocker']);
    await page.click('button[value="summarize"]');
    await page.locator('h1', { hasText: 'Your request, for review' }).waitFor();
    const review = await page.locator('#o-summarize').innerText();
    expect(review).toContain('Blocker or risk'); // still missing, by its label
    expect(review).toContain('Defined project'); // the model's name, not its id
    expect(review).not.toContain('defined-project');
    expect(review).not.toMatch(/contract|GET \/api/);
    for (const [name, value] of Object.entries(STEP2))
      if (name !== 'blocker') expect(await page.inputValue(`#f-${name}`)).toBe(value);
    expect(await page.inputValue('#f-question')).toBe(STEP1.question); // carried through step 2's post
    await shot(page, 'nojs-review');

    // A refusal (a likely secret) keeps every other value and clears the flagged one.
    const accessKey = `AKIA${randomBytes(16).toString('hex').toUpperCase().slice(0, 16)}`;
    await page.fill('#f-blocker', `Deploys use the key ${accessKey} today.`);
    await page.click('button[value="summarize"]');
    await page.locator('h1', { hasText: 'Please check your request' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('Blocker or risk looks like');
    expect(await page.content()).not.toContain(accessKey);
    expect(await page.inputValue('#f-blocker')).toBe('');
    expect(await page.inputValue('#f-email')).toBe(email);
    expect(await page.inputValue('#f-question')).toBe(STEP1.question);
    await shot(page, 'nojs-refused');

    await page.fill('#f-blocker', STEP2.blocker);
    await page.click('button[value="summarize"]');
    await page.locator('#o-summarize', { hasText: 'Ready to send' }).waitFor();
    await page.check('#f-consent');
    await page.click('button[value="submit"]');
    await page.locator('h1', { hasText: 'Proposal request received' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('A confirmation email was sent');
    await shot(page, 'nojs-received');
    expect(mailsTo(email)).toHaveLength(1);
    expect(crmRecordsFor(email)).toHaveLength(1);
  });

  it('can be completed with the keyboard alone', async () => {
    const { page } = await open();
    const email = uniqueEmail();
    const tabTo = async (selector: string) => {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    const typeInto = async (selector: string, text: string) => {
      await tabTo(selector);
      await page.keyboard.type(text);
    };

    await typeInto('#f-question', STEP1.question);
    await typeInto('#f-industry', STEP1.industry);
    await typeInto('#f-company_size', '2'); // type-ahead picks "201-1000 employees"
    await typeInto('#f-primary_need', 'Gen');
    expect(await page.inputValue('#f-company_size')).toBe('201-1000');
    expect(await page.inputValue('#f-primary_need')).toBe('genai-and-contact-center');
    await tabTo('button[value="guide"]');
    await page.keyboard.press('Enter');
    await heading(page, 'guide').waitFor();
    expect(await activeId(page)).toBe('o-guide'); // focus moves to the reply
    await tabTo('#o-guide button');
    await page.keyboard.press('Enter'); // "Continue" opens step 2 at its first field
    expect(await activeId(page)).toBe('f-business_outcome');

    await page.keyboard.type(STEP2.business_outcome);
    for (const [name, value] of Object.entries(STEP2).slice(1)) await typeInto(`#f-${name}`, value);
    await typeInto('#f-name', 'Alex Doe');
    await typeInto('#f-email', email);
    await typeInto('#f-company', 'Example Insurance');
    await page.keyboard.press('Enter'); // Enter in a text field runs its step
    await page.locator('#o-summarize', { hasText: 'Ready to send' }).waitFor();

    await tabTo('#f-consent');
    await page.keyboard.press('Space');
    expect(await page.isChecked('#f-consent')).toBe(true);
    await page.keyboard.press('Enter'); // and in the consent box, it sends
    await page.locator('#o-submit h2', { hasText: 'Request received' }).waitFor();
    expect(await activeId(page)).toBe('o-submit');
    await shot(page, 'keyboard-received', 4);
  });

  it('has no axe-core violations, empty and with replies and errors shown', async () => {
    // axe is injected as a script, which the page's CSP forbids: bypass it for this test only.
    const { page } = await open({ bypassCSP: true });
    await page.addScriptTag({ path: join(root, 'node_modules/axe-core/axe.min.js') });
    const violations = () =>
      page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: () => Promise<{
                violations: { id: string; impact: string; help: string; nodes: { target: unknown[] }[] }[];
              }>;
            };
          }
        ).axe;
        const result = await axe.run();
        return result.violations.map(
          (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
        );
      });
    const empty = await violations();
    expect(empty, empty.join('\n')).toEqual([]);

    await fillStep1(page);
    await page.click('button[value="guide"]');
    await heading(page, 'guide').waitFor();
    await openStep(page, 'request');
    await page.fill('#f-business_outcome', STEP2.business_outcome);
    await page.click('button[value="summarize"]');
    await heading(page, 'summarize').waitFor();
    await page.click('button[value="submit"]'); // no consent: stopped in the browser, shown at the box
    await page.locator('#e-consent').waitFor();
    await shot(page, 'error-consent', 4);
    await page.check('#f-consent');
    await page.click('button[value="submit"]'); // missing fields: the server's errors at the fields
    await page.locator('#e-email').waitFor();
    expect(await page.locator('#e-blocker').innerText()).toBe('Blocker or risk is required.');
    await shot(page, 'error-fields', 4);
    const filled = await violations();
    expect(filled, filled.join('\n')).toEqual([]);
  });

  it('shows steps 1 to 4 in order, none folded, and says a missing consent once, at the box', async () => {
    for (const width of [390, 1280]) {
      const { page } = await open({ viewport: { width, height: 900 } });
      const headings = await page.locator('.step > summary, .ws-side h2').allInnerTexts();
      expect(headings.map((t) => t.trim().slice(0, 2))).toEqual(['1.', '2.', '3.', '4.']);
      for (const step of ['#step-guide', '#step-request'])
        expect(await page.locator(step).getAttribute('open'), step).not.toBeNull();
      expect(await page.locator('#step-guide > summary').innerText()).not.toMatch(/optional/i);
      await page.click('button[value="submit"]');
      await page.locator('#e-consent').waitFor();
      const text = await page.locator('main').innerText();
      expect(text.split(CONSENT_MISSING).length - 1).toBe(1);
      expect(text).not.toMatch(/consent needed/i);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-consent');
      await shot(page, `consent-missing-${width}`, 4);
    }
  });
});
