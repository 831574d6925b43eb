/**
 * What the shipped function decides about who is asking, in-process with a real SMTP server, a CRM
 * stand-in, a chat stand-in and a real local Blobs server: the limits count people, not spellings;
 * hostile company names reach sales as text; another site's page cannot submit through a browser
 * while curl can. (One client reaching its own limit: tests/unit/send-limits.test.ts. What npm start's
 * own processes do, listening on loopback only and outliving any POST: tests/e2e/serve-guard.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SubmitRequest } from '../../src/contract/requests.ts';
import { countedMailbox } from '../../src/contract/send-limits.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { HOSTILE_COMPANIES, decodedSubject, expectInertChat, expectInertSubject } from '../helpers/hostile-values.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import { apiPost, restoreEnv, shippedFunction, type ShippedFunction } from '../helpers/shipped-function.ts';
import { mailsTo, startSmtp, type TestSmtp, readableMail } from '../helpers/smtp.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';

const SALES = 'sales@kestrelcloud.example';
let blobs: TestBlobs;
let crm: TestCrmServer;
let chat: TestCrmServer;
let smtp: TestSmtp;
let fn: ShippedFunction;
let env: Record<string, string>;

beforeAll(async () => {
  [blobs, crm, chat, smtp] = await Promise.all([startBlobs(), startCrmServer(), startCrmServer(), startSmtp()]);
  env = { ...loopbackDeliveryEnv(crm, smtp), NOTIFY_EMAIL: SALES, NOTIFY_WEBHOOK_URL: `${chat.url}/chat` };
  fn = await shippedFunction(env);
});
afterAll(async () => {
  restoreEnv(env);
  await Promise.all([crm?.stop(), chat?.stop(), smtp?.stop()]);
  await blobs?.stop();
});

/** One submit as curl sends it (no fetch metadata, no Origin), with a new key. */
async function submit(request: Partial<SubmitRequest>, headers: Record<string, string> = {}) {
  const payload = { ...submitRequest(request), role: undefined, form_started_at: undefined, website: undefined };
  const res = await fn.handle(apiPost(payload, { 'idempotency-key': randomUUID(), ...headers }));
  return { http: res.status, ...((await res.json()) as { request_id: string; confirmation_email: string }) };
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
  });
});

describe('sales messages show what was sent', () => {
  it('hostile company names arrive escaped in the chat stand-in and in the notice Subject', async () => {
    for (const company of HOSTILE_COMPANIES) {
      const answer = await submit({ company, email: `hostile-${randomUUID()}@example.com` });
      expect(answer.http, JSON.stringify(answer)).toBe(201);
      // The notices follow the reply (the invocation's waitUntil).
      await fn.settle();
      const notice = mailsTo(smtp.messages, SALES).find((m) => readableMail(m.raw).includes(answer.request_id));
      const posted = chat.requests.find((r) => r.body.includes(answer.request_id));
      expect(notice !== undefined && posted !== undefined).toBe(true);
      expectInertSubject(decodedSubject(notice!.raw), company);
      expectInertChat((JSON.parse(posted!.body) as { text: string }).text, company);
    }
  });
});

describe('browser posts from another site', () => {
  it('a cross-site browser POST is refused with 403; the same POST from curl is not', async () => {
    const guide = {
      action: 'guide',
      question: 'We need to migrate our data center to the cloud and cut costs.',
      industry: 'logistics',
      company_size: '201-1000',
      primary_need: 'cloud-engineering',
    };
    const browser = await fn.handle(
      apiPost(guide, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors', origin: 'https://evil.example' }),
    );
    expect(browser.status).toBe(403);
    expect(((await browser.json()) as { type: string }).type).toMatch(/#problem-cross-site-request$/);
    const curl = await fn.handle(apiPost(guide, { 'user-agent': 'curl/8.5.0' }));
    expect(curl.status).toBe(200);
  });
});
