/**
 * Through `npm start`, with a real SMTP server, a CRM stand-in and a chat stand-in: the limits count
 * people, not spellings; hostile company names reach sales as text; another site's page cannot
 * submit through a browser while curl can; nothing npm start or npm run dev runs listens beyond
 * loopback, and no POST to any port npm start listens on ends it.
 * (One client reaching its own limit needs two client addresses: tests/unit/send-limits.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import { submitWithRetries } from '../helpers/submit-client.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import type { SubmitRequest } from '../../src/contract/requests.ts';
import { countedMailbox } from '../../src/contract/send-limits.ts';
import { HOSTILE_COMPANIES, decodedSubject, expectInertChat, expectInertSubject } from '../helpers/hostile-values.ts';
import { isLoopback, listenersOf, processTree } from '../helpers/listeners.ts';
import { startDev } from '../helpers/dev-server.ts';

const SALES = 'sales@kestrelcloud.example';
let site: RunningSite;
let crm: TestCrmServer;
let chat: TestCrmServer;
let smtp: TestSmtp;

beforeAll(async () => {
  [crm, chat, smtp] = await Promise.all([startCrmServer(), startCrmServer(), startSmtp()]);
  site = await startSite({
    ...loopbackDeliveryEnv(crm, smtp),
    NOTIFY_EMAIL: SALES,
    NOTIFY_WEBHOOK_URL: `${chat.url}/chat`,
  });
});
afterAll(async () => {
  await site?.stop();
  await Promise.all([crm?.stop(), chat?.stop(), smtp?.stop()]);
});

/** One submit as curl sends it (no fetch metadata, no Origin), retried as the contract says (tests/helpers/submit-client.ts). */
async function submit(request: Partial<SubmitRequest>, headers: Record<string, string> = {}) {
  const payload = JSON.stringify({
    ...submitRequest(request),
    role: undefined,
    form_started_at: undefined,
    website: undefined,
  });
  const { http, body } = await submitWithRetries(site.url, payload, { headers });
  return { http, ...(body as { request_id: string; confirmation_email: string }) };
}

describe('limits that count people', () => {
  it('ten spellings of one Gmail mailbox get three confirmations in all', async () => {
    const name = `jdoe${randomUUID().slice(0, 6)}`;
    const dotted = name.split('').join('.');
    const spellings = [
      `${name}@gmail.com`,
      `${dotted}@gmail.com`,
      `${dotted}@googlemail.com`,
      `${name.toUpperCase()}@GMAIL.COM`,
      `${name}+cv@gmail.com`,
      `${name.slice(0, 1)}.${name.slice(1)}@googlemail.com`,
      `${name}+x.y@GoogleMail.com`,
      `${dotted.toUpperCase()}+z@gmail.com`,
      `${name.slice(0, 3)}.${name.slice(3)}@gmail.com`,
      `${name}@googlemail.com`,
    ];
    const answers = [];
    for (const email of spellings) answers.push(await submit({ email }));
    expect(answers.map((a) => a.http)).toEqual(Array<number>(10).fill(201));
    expect(answers.map((a) => a.confirmation_email)).toEqual([
      ...Array<string>(3).fill('sent'),
      ...Array<string>(7).fill('limited'),
    ]);
    const confirmations = smtp.messages.filter((m) => m.to.some((to) => countedMailbox(to) === `${name}@gmail.com`));
    expect(confirmations).toHaveLength(3);
    console.info(`ten spellings of one Gmail mailbox: ${confirmations.length} confirmations`);
  });
});

describe('sales messages show what was sent', () => {
  it('hostile company names arrive escaped in the chat stand-in and in the notice Subject', async () => {
    for (const company of HOSTILE_COMPANIES) {
      const answer = await submit({ company, email: `hostile-${randomUUID()}@example.com` });
      expect(answer.http, JSON.stringify(answer)).toBe(201);
      // The notices follow the reply (the invocation's waitUntil).
      const noticeOf = () => mailsTo(smtp.messages, SALES).find((m) => m.raw.includes(answer.request_id));
      const postOf = () => chat.requests.find((r) => r.body.includes(answer.request_id));
      await expect.poll(() => noticeOf() !== undefined && postOf() !== undefined, { timeout: 10_000 }).toBe(true);
      const notice = noticeOf();
      expectInertSubject(decodedSubject(notice!.raw), company);
      const posted = postOf();
      expectInertChat((JSON.parse(posted!.body) as { text: string }).text, company);
    }
  });
});

describe('browser posts from another site', () => {
  it('a cross-site browser POST is refused with 403; the same POST from curl is not', async () => {
    const guide = JSON.stringify({
      action: 'guide',
      question: 'We need to migrate our data center to the cloud and cut costs.',
      industry: 'logistics',
      company_size: '201-1000',
      primary_need: 'cloud-engineering',
    });
    const send = (headers: Record<string, string>) =>
      fetch(`${site.url}/api/proposal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: guide,
      });
    const browser = await send({
      'sec-fetch-site': 'cross-site',
      'sec-fetch-mode': 'cors',
      origin: 'https://evil.example',
    });
    expect(browser.status).toBe(403);
    expect(((await browser.json()) as { type: string }).type).toMatch(/#problem-cross-site-request$/);
    const curl = await send({ 'user-agent': 'curl/8.5.0' });
    expect(curl.status).toBe(200);
  });
});

describe('where npm start listens', () => {
  it('every socket of its process tree is bound to loopback', () => {
    const listeners = listenersOf(processTree(site.pid));
    // The front server, netlify serve's proxy, functions, static and Blobs servers at least.
    expect(listeners.length).toBeGreaterThanOrEqual(4);
    expect(listeners.filter((l) => !isLoopback(l.address))).toEqual([]);
    console.info(`npm start listens on: ${listeners.map((l) => `${l.address}:${l.port}`).join(', ')}`);
  });
});

/** Seven megabytes POSTed to a loopback port, with a declared length or chunked; what comes back does not matter. */
function postSevenMegabytes(port: number, chunked: boolean): Promise<void> {
  return new Promise((resolve) => {
    const body = Buffer.alloc(7 * 1024 * 1024, 'a');
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/proposal',
      headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': body.length }) },
      timeout: 8_000,
    });
    const done = () => resolve();
    req.once('response', (res) => {
      res.resume();
      res.once('end', done);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', done);
    req.once('close', done);
    req.end(body);
  });
}

describe('no single request ends npm start', () => {
  it('a 7 MB POST to each port it listens on, with a length and chunked, leaves it serving', async () => {
    const ports = [...new Set(listenersOf(processTree(site.pid)).map((l) => l.port))];
    for (const port of ports) {
      await postSevenMegabytes(port, false);
      await postSevenMegabytes(port, true);
    }
    expect((await fetch(`${site.url}/llms.txt`)).status).toBe(200);
    // The CLI itself (and the function behind it) still answers.
    const answer = await submit({ email: `after-${randomUUID()}@example.com` });
    expect(answer.http).toBe(201);
    console.info(`7 MB POSTs (declared and chunked) to ${ports.length} ports; npm start still serving`);
  }, 300_000);
});

describe('where npm run dev listens', () => {
  it('every socket of its process tree is bound to loopback', async () => {
    const dev = await startDev({});
    try {
      const listeners = listenersOf(processTree(dev.pid));
      expect(listeners.length).toBeGreaterThanOrEqual(3);
      expect(listeners.filter((l) => !isLoopback(l.address))).toEqual([]);
      console.info(`npm run dev listens on: ${listeners.map((l) => `${l.address}:${l.port}`).join(', ')}`);
    } finally {
      await dev.stop();
    }
  }, 300_000);
});
