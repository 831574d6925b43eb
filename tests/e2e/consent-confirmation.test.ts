/**
 * The confirmation email's links through `npm start` with a real SMTP server, followed in Chromium
 * with and without JavaScript: opening a page changes nothing, the press does; "Yes, this was me"
 * makes the consent first_party, "Not me" erases the request, a reused link is refused.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../scripts/local-site/browser.ts';
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

async function openPage(url: string, javaScriptEnabled: boolean, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ javaScriptEnabled, viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  await page.goto(url);
  return { page, context, problems };
}

describe('the confirmation email links in a browser', () => {
  it('with JavaScript: opening "Yes, this was me" changes nothing; the press makes the consent first_party; a reuse is refused', async () => {
    const { id, yes } = await submitAndReadLinks(`yes-js-${randomUUID().slice(0, 8)}@example.com`);
    const { page, context, problems } = await openPage(yes, true);
    await page.screenshot({ path: '/tmp/i39-confirm-desktop.png', fullPage: true });
    expect(storedRecord(id)!.consent).toMatchObject({ method: 'agent_asserted', vouched_by: 'agent' });
    await page.getByRole('button', { name: 'Yes, this was me' }).click();
    await expect.poll(() => page.locator('#answer-result').textContent()).toContain('confirmed');
    await page.screenshot({ path: '/tmp/i39-confirm-done-desktop.png', fullPage: true });
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

    const again = await openPage(yes, true, { width: 390, height: 844 });
    await again.page.getByRole('button', { name: 'Yes, this was me' }).click();
    await expect.poll(() => again.page.locator('#answer-result').textContent()).toContain('already used');
    await again.page.screenshot({ path: '/tmp/i39-confirm-reused-phone.png', fullPage: true });
    await Promise.all([context.close(), again.context.close()]);
  });

  it('without JavaScript: "Not me" posts the page\'s form to its own address, the reply page says done and the request is erased', async () => {
    const { id, notMe } = await submitAndReadLinks(`notme-nojs-${randomUUID().slice(0, 8)}@example.com`);
    const { page, context } = await openPage(notMe, false, { width: 390, height: 844 });
    await page.screenshot({ path: '/tmp/i39-notme-phone.png', fullPage: true });
    expect(storedRecord(id)).not.toBeNull();
    await page.getByRole('button', { name: 'Not me: delete the request' }).click();
    await expect(page.locator('h1').textContent()).resolves.toBe('Done');
    await page.screenshot({ path: '/tmp/i39-notme-done-phone.png', fullPage: true });
    expect(storedRecord(id)).toBeNull();
    const deletions = () => crm.requests.filter((r) => r.headers['webhook-id'] === `${id}.erased`);
    await expect.poll(() => deletions().length, { timeout: 10_000 }).toBe(1);
    expect(JSON.parse(deletions()[0]!.body)).toEqual({ event: 'erased', request_id: id });

    // The same link again: refused, with the problem's words, nothing changed.
    const again = await openPage(notMe, false);
    await again.page.getByRole('button', { name: 'Not me: delete the request' }).click();
    await expect(again.page.locator('h1').textContent()).resolves.toBe('The confirmation link was already used');
    await Promise.all([context.close(), again.context.close()]);
  });

  it('a tampered token is refused over the API with its problem, and the record is unchanged', async () => {
    const { id, yes } = await submitAndReadLinks(`tampered-${randomUUID().slice(0, 8)}@example.com`);
    const token = new URL(yes).searchParams.get('token')!;
    // The sales notice follows the reply: the record is settled once it is sent and the claim released.
    await expect
      .poll(() => {
        const record = storedRecord(id);
        return record?.notification?.email === 'sent' && record.claim === undefined;
      })
      .toBe(true);
    const before = storedRecord(id);
    const response = await fetch(`${site.url}/api/proposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'confirm_request', request_id: id, token: `${token.slice(0, -2)}AA` }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ type: expect.stringMatching(/#problem-confirmation-link-invalid$/) });
    expect(storedRecord(id)).toEqual(before);
  });
});
