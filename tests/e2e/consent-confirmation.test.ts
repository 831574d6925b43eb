/**
 * The confirmation email's links through `npm start` with a real SMTP server, followed in Chromium
 * with and without JavaScript: opening a page names the request and changes nothing, the press does;
 * "Yes, this was me" makes the consent first_party, "Not me" erases the request (also after a "Yes"),
 * a used link shows as used on opening. Screenshots at 390 and 1366 px land in test-results/.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../scripts/local-site/browser.ts';
import { root } from '../../scripts/local-site/dist.ts';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { submitWithRetries } from '../helpers/submit-client.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';

let crm: TestCrmServer;
let smtp: TestSmtp;
let site: RunningSite;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(join(root, 'test-results'), { recursive: true });
  [crm, smtp, browser] = await Promise.all([startCrmServer(), startSmtp(), launchBrowser()]);
  site = await startSite({
    ...loopbackDeliveryEnv(crm, smtp),
    CONSENT_SECRET: `e2e-consent-secret-${randomUUID()}`,
  });
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
  await Promise.all([crm?.stop(), smtp?.stop()]);
});

/** The stored request, read where `netlify serve` keeps the site's blobs; null once erased. */
function storedRecord(id: string): ProposalRecord | null {
  const root = join(site.dir, '.netlify/blobs-serve/entries');
  const file = readdirSync(root, { recursive: true, encoding: 'utf8' }).find((p) =>
    new RegExp(`proposals[\\\\/]requests[\\\\/]${id}$`).test(p),
  );
  return file === undefined || !existsSync(join(root, file))
    ? null
    : (JSON.parse(readFileSync(join(root, file), 'utf8')) as ProposalRecord);
}

/** The body as the person reads it: quoted-printable undone. */
const readable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** Submits as an agent over the HTTP API and returns the request id and the email's two links, on this server. */
async function submitAndReadLinks(email: string) {
  const payload = JSON.stringify({ ...submitRequest({ email }), form_started_at: undefined, website: undefined });
  const { http, body } = await submitWithRetries(site.url, payload);
  expect(http).toBe(201);
  const id = (body as { request_id: string }).request_id;
  await expect.poll(() => mailsTo(smtp.messages, email).length, { timeout: 15_000 }).toBe(1);
  const text = readable(mailsTo(smtp.messages, email)[0]!.raw);
  // The links name the partner's site (its production address); this server serves the same pages.
  const link = (path: string) => {
    const found = new URL(new RegExp(`https?://\\S+${path}\\?\\S+`).exec(text)![0]);
    return `${site.url}${found.pathname}${found.search}`;
  };
  return { id, yes: link('/confirm/yes'), notMe: link('/confirm/not-me') };
}

/** Until the request's work after the reply is done (the sales notice sent, no claim held): then only a press changes it. */
async function settled(id: string): Promise<void> {
  await expect
    .poll(
      () => {
        const r = storedRecord(id);
        return r?.notification?.email === 'sent' && r.claim === undefined && r.due_at === undefined;
      },
      { timeout: 60_000 },
    )
    .toBe(true);
}

/** The request and token a link carries. */
function linkOf(url: string): { request_id: string; token: string } {
  const query = new URL(url).searchParams;
  return { request_id: query.get('request')!, token: query.get('token')! };
}

async function openPage(url: string, javaScriptEnabled: boolean, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ javaScriptEnabled, viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.goto(url);
  return { page, context, problems };
}

/** A date as the pages write it: "Tuesday 1 December 2026 at 21:38 UTC". */
const PERSONAL_DATE = /\b(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day \d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC\b/;
/** Words that name the site's machinery, never shown to the person. */
const MECHANISM = /request_id|idempoten|token|\bCRM\b|customer-relationship|\bstor(e|ed|age)\b|check_link/i;
const SHOTS = join(root, 'test-results');

/** The page after its opening check answered (with JavaScript): the title no longer the static one, or the button back. */
async function checked(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('#answer-result').textContent(), { timeout: 15_000 })
    .not.toContain('Looking up');
}

/** Full-page screenshots at a phone's and a laptop's width, into test-results/. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: join(SHOTS, `confirm-${name}-${width}.png`), fullPage: true });
  }
}

const visibleButton = (page: Page, name: string) => page.getByRole('button', { name });

describe('the confirmation email links in a browser', () => {
  it('with JavaScript: the page names the request and changes nothing on opening; "Yes" makes the consent first_party; reopened, the link shows as used', async () => {
    const { id, yes } = await submitAndReadLinks(`yes-js-${randomUUID().slice(0, 8)}@example.com`);
    await settled(id);
    const before = storedRecord(id);
    const { page, context, problems } = await openPage(yes, true);
    await checked(page);
    expect(await page.locator('h1').textContent()).toBe('Confirm your proposal request');
    const request = await page.locator('.link-request').innerText();
    expect(request).toContain('Example GmbH');
    expect(request).toMatch(PERSONAL_DATE);
    expect(request).toContain('Cloud engineering');
    expect(await page.locator('main').innerText()).not.toMatch(MECHANISM);
    await shots(page, 'yes-opened');
    // Opening asked what the link names, and changed nothing.
    expect(storedRecord(id)).toEqual(before);

    await visibleButton(page, 'Yes, this was me').click();
    await expect.poll(() => page.locator('#answer-result').textContent(), { timeout: 15_000 }).toContain('confirmed');
    expect(await page.locator('h1').textContent()).toBe('Request confirmed');
    expect(await page.title()).toMatch(/^Request confirmed/);
    const after = await page.locator('main').innerText();
    expect(after).not.toContain('confirm it here');
    expect(after).toContain('"Not me" link in the same email still withdraws it');
    expect(after).toContain('Example GmbH');
    expect(after).not.toMatch(MECHANISM);
    expect(await visibleButton(page, 'Yes, this was me').count()).toBe(0);
    await shots(page, 'yes-after');
    expect(storedRecord(id)!.consent).toMatchObject({
      method: 'email_link',
      vouched_by: 'first_party',
      initially: { method: 'agent_asserted', vouched_by: 'agent' },
    });
    expect(problems).toEqual([]);
    // The CRM, which had the request, is sent the update once, under an id of its own.
    const updates = () => crm.requests.filter((r) => r.headers['webhook-id'] === `${id}.consent-confirmed`);
    await expect.poll(() => updates().length, { timeout: 10_000 }).toBe(1);
    expect(JSON.parse(updates()[0]!.body)).toMatchObject({
      event: 'consent-confirmed',
      consent: { vouched_by: 'first_party' },
    });

    // Reopened: used on opening, no button left to press, the request still named.
    const again = await openPage(yes, true, { width: 390, height: 844 });
    await checked(again.page);
    expect(await again.page.locator('h1').textContent()).toBe('You confirmed this request');
    expect(await again.page.locator('.link-request').innerText()).toContain('Example GmbH');
    expect(await visibleButton(again.page, 'Yes, this was me').count()).toBe(0);
    expect(await again.page.locator('main').innerText()).toContain('even after a "Yes"');
    await shots(again.page, 'yes-used');
    expect(again.problems).toEqual([]);
    await Promise.all([context.close(), again.context.close()]);
  });

  it('with JavaScript: "Not me" after "Yes" says it withdraws the confirmed request, erases it, and then both links show it as deleted', async () => {
    const { id, yes, notMe } = await submitAndReadLinks(`withdraw-${randomUUID().slice(0, 8)}@example.com`);
    const confirm = await fetch(`${site.url}/api/proposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'confirm_request', ...linkOf(yes) }),
    });
    expect(confirm.status).toBe(200);
    const { page, context, problems } = await openPage(notMe, true);
    await checked(page);
    expect(await page.locator('h1').textContent()).toBe('Withdraw your proposal request?');
    expect(await page.locator('main').innerText()).toContain('This request was confirmed with "Yes, this was me"');
    await shots(page, 'not-me-after-yes-opened');
    expect(storedRecord(id)).not.toBeNull();
    await visibleButton(page, 'Not me: delete the request').click();
    await expect.poll(() => page.locator('h1').textContent(), { timeout: 15_000 }).toBe('Request deleted');
    await shots(page, 'not-me-after');
    expect(storedRecord(id)).toBeNull();

    for (const [link, name] of [
      [notMe, 'not-me-used'],
      [yes, 'yes-after-not-me'],
    ] as const) {
      const again = await openPage(link, true, { width: 390, height: 844 });
      await checked(again.page);
      expect(await again.page.locator('h1').textContent()).toBe('This request was deleted');
      expect(
        await again.page
          .getByRole('button')
          .filter({ hasText: /Yes, this was me|Not me/ })
          .count(),
      ).toBe(0);
      await shots(again.page, name);
      expect(again.problems).toEqual([]);
      await again.context.close();
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('with JavaScript: an expired link shows as expired with no button; a tampered one as not working', async () => {
    const { yes } = await submitAndReadLinks(`expired-${randomUUID().slice(0, 8)}@example.com`);
    // A real link expires after 24 hours: the page is given the check's answer for one that did.
    const { page, context } = await openPage('about:blank', true);
    await page.route('**/api/proposal', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          status: 'expired',
          company: 'Example GmbH',
          received_at: '2026-11-30T21:38:00.000Z',
          choices: ['Cloud engineering and migration'],
        }),
      }),
    );
    await page.goto(yes);
    await checked(page);
    expect(await page.locator('h1').textContent()).toBe('This link has expired');
    expect(await page.locator('.link-request').innerText()).toContain('Monday 30 November 2026 at 21:38 UTC');
    expect(await visibleButton(page, 'Yes, this was me').count()).toBe(0);
    await shots(page, 'yes-expired');

    const tampered = new URL(yes);
    tampered.searchParams.set('token', `${tampered.searchParams.get('token')!.slice(0, -2)}AA`);
    const bad = await openPage(tampered.href, true, { width: 390, height: 844 });
    await checked(bad.page);
    expect(await bad.page.locator('h1').textContent()).toBe('This link does not work');
    expect(await visibleButton(bad.page, 'Yes, this was me').count()).toBe(0);
    await Promise.all([context.close(), bad.context.close()]);
  });

  it('with JavaScript: a draft from an AI assistant shows the consent text with the request before the press, and says the assistant sends it', async () => {
    const { yes } = await submitAndReadLinks(`draft-${randomUUID().slice(0, 8)}@example.com`);
    const consentText = 'I agree that Example stores this request and contacts me about it.';
    // A draft's link names a grant, not a stored request: the page is given the check's and the press's answers for one.
    const { page, context, problems } = await openPage('about:blank', true);
    await page.route('**/api/proposal', (route) => {
      const action = (route.request().postDataJSON() as { action: string }).action;
      return route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify(
          action === 'check_link'
            ? {
                status: 'valid',
                company: 'Draft Example Ltd',
                received_at: '2026-12-01T21:38:00.000Z',
                choices: ['Cloud engineering and migration'],
                consent_text: consentText,
              }
            : { status: 'confirmed', message: 'Thank you: your request is confirmed as yours.' },
        ),
      });
    });
    await page.goto(yes);
    await checked(page);
    const main = await page.locator('main').innerText();
    expect(main).toContain('Your AI assistant wants to send this request to Kestrel Cloud for you.');
    expect(await page.locator('.consent-quote').innerText()).toBe(consentText);
    expect(await page.locator('.link-request').innerText()).toContain('Tuesday 1 December 2026 at 21:38 UTC');
    await shots(page, 'yes-draft-opened');
    await visibleButton(page, 'Yes, this was me').click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Request confirmed');
    expect(await page.locator('#answer-result').innerText()).toContain('Go back to your AI assistant');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without JavaScript: the page stays as it is; "Not me" posts to its own address, the reply page names the outcome and the request is erased', async () => {
    const { id, notMe } = await submitAndReadLinks(`notme-nojs-${randomUUID().slice(0, 8)}@example.com`);
    const { page, context } = await openPage(notMe, false, { width: 390, height: 844 });
    expect(await page.locator('h1').textContent()).toBe('Not your proposal request?');
    expect(await page.locator('main').innerText()).toContain('It also withdraws a request you confirmed earlier');
    await shots(page, 'not-me-nojs-opened');
    expect(storedRecord(id)).not.toBeNull();
    await visibleButton(page, 'Not me: delete the request').click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Request deleted');
    expect(await page.locator('main').innerText()).not.toMatch(MECHANISM);
    await shots(page, 'not-me-nojs-after');
    expect(storedRecord(id)).toBeNull();
    const deletions = () => crm.requests.filter((r) => r.headers['webhook-id'] === `${id}.erased`);
    await expect.poll(() => deletions().length, { timeout: 10_000 }).toBe(1);
    expect(JSON.parse(deletions()[0]!.body)).toEqual({ event: 'erased', request_id: id });

    // The same link again: refused in people's words, nothing changed.
    const again = await openPage(notMe, false);
    await visibleButton(again.page, 'Not me: delete the request').click();
    await expect(again.page.locator('h1').textContent()).resolves.toBe('This link was already used');
    await shots(again.page, 'not-me-nojs-used');
    await Promise.all([context.close(), again.context.close()]);
  });

  it('a tampered token is refused over the API with its problem, and the record is unchanged', async () => {
    const { id, yes } = await submitAndReadLinks(`tampered-${randomUUID().slice(0, 8)}@example.com`);
    const { token } = linkOf(yes);
    await settled(id);
    const before = storedRecord(id);
    for (const body of [
      { action: 'check_link', request_id: id, token: `${token.slice(0, -2)}AA`, answer: 'confirm' },
      { action: 'confirm_request', request_id: id, token: `${token.slice(0, -2)}AA` },
    ]) {
      const response = await fetch(`${site.url}/api/proposal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({
        type: expect.stringMatching(/#problem-confirmation-link-invalid$/),
      });
    }
    expect(storedRecord(id)).toEqual(before);
  });
});
