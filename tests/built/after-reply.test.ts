/**
 * What the reply waits for, and what follows it: the CRM and the confirmation email before the reply;
 * the sales notice after it, through the invocation's waitUntil, and only for a request that reached
 * the pipeline (not OPTIONS, not an invalid body). Guide and summarize touch no store, counted at the
 * Blobs server's door; only a question the site could not answer is counted after the reply, by its
 * topic words, and owes the day's questions job. What is owed after the invocation is the scheduled
 * function's (tests/built/owed-work.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { getStore, setEnvironmentContext } from '@netlify/blobs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import handler from '../../netlify/functions/proposal.mts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { PROPOSALS_STORE } from '../../src/proposal/store/blobs.ts';
import { DAY_MS, windowKey, windowOf } from '../../src/proposal/store/tally.ts';
import type { JobRecord } from '../../src/proposal/work/jobs.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { startBlobsFaultProxy, type BlobsFaultProxy } from '../helpers/blobs-fault-proxy.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { afterReply, functionDoors, type Doors } from '../helpers/function-doors.ts';
import { mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { envOf, newWebhookSecret, submitRequest } from '../helpers/submit-fixtures.ts';

const API = 'http://127.0.0.1/api/proposal';
let blobs: TestBlobs;
let proxy: BlobsFaultProxy;
let crm: TestCrmServer;
let chat: TestCrmServer;
let smtp: TestSmtp;
let doors: Doors;
let siteID: string;

beforeAll(async () => {
  [blobs, crm, chat, smtp] = await Promise.all([startBlobs(), startCrmServer(), startCrmServer(), startSmtp()]);
  proxy = await startBlobsFaultProxy(blobs.url);
  // The configuration is read once, when the doors are made, as on a deployed instance.
  doors = functionDoors(
    { inUseWaitMs: 300 },
    envOf({
      CRM_PROVIDER: 'webhook',
      CRM_WEBHOOK_URL: `${crm.url}/crm`,
      CRM_WEBHOOK_SECRET: newWebhookSecret(),
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
      NOTIFY_WEBHOOK_URL: `${chat.url}/hook`,
    }),
  );
});
afterAll(async () => {
  await Promise.all([proxy?.stop(), crm?.stop(), chat?.stop(), smtp?.stop()]);
  await blobs?.stop();
});
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  // A site of its own per test, every Blobs request through the proxy, which counts them.
  siteID = `after-${randomUUID()}`;
  setEnvironmentContext({ siteID, token: blobs.token, edgeURL: proxy.url, uncachedEdgeURL: proxy.url });
  proxy.seen.length = 0;
  chat.requests.length = 0;
  smtp.messages.length = 0;
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request(API, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const submit = (body: unknown, key = randomUUID()) => post(body, { 'idempotency-key': key });

/** What the site's store holds, read straight from the Blobs server (not through the proxy). */
async function stored(prefix: string): Promise<Array<{ key: string; value: unknown }>> {
  const store = getStore({
    name: PROPOSALS_STORE,
    siteID,
    token: blobs.token,
    consistency: 'strong',
    edgeURL: blobs.url,
    uncachedEdgeURL: blobs.url,
  });
  const { blobs: listed } = await store.list({ prefix });
  return Promise.all(
    listed.map(async ({ key }) => ({ key, value: (await store.get(key, { type: 'json' })) as unknown })),
  );
}

describe('after the reply', () => {
  it('the reply waits for the CRM and the confirmation, not for the chat notice, which follows in waitUntil', async () => {
    chat.behave({ kind: 'status', status: 200, delayMs: 1_500 });
    const { later, waitUntil } = afterReply();
    const response = await doors.http(submit(submitRequest()), { waitUntil });
    expect(response.status).toBe(201);
    // Counted, not timed: the reply is there while the work after it (the chat, answered 1.5 s late) still runs.
    const settled = await Promise.race([Promise.all(later).then(() => true), Promise.resolve(false)]);
    expect(settled).toBe(false);
    expect(mailsTo(smtp.messages, submitRequest().email).length).toBeGreaterThan(0);
    expect(later).toHaveLength(1);
    await Promise.all(later);
    expect(chat.requests).toHaveLength(1);
  });

  it('no work after the reply for OPTIONS or an invalid request', async () => {
    const { later, waitUntil } = afterReply();
    await doors.http(new Request(API, { method: 'OPTIONS' }), { waitUntil });
    await doors.http(submit({ action: 'submit', consent: true }), { waitUntil });
    expect(later).toEqual([]);
  });
});

describe('guide and summarize touch no store', () => {
  it('neither before nor after the reply, through the shipped entry, over HTTP and a form', async () => {
    const { later, waitUntil } = afterReply();
    const context = { waitUntil } as unknown as Parameters<typeof handler>[1];
    const form = (fields: Record<string, string>) =>
      new Request(API, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
    const { action: _g, ...guideFields } = EXAMPLE_REQUESTS.guide;
    const replies = [
      await handler(post(EXAMPLE_REQUESTS.guide), context),
      await handler(post(EXAMPLE_REQUESTS.summarize), context),
      await handler(post(EXAMPLE_REQUESTS.guide, { 'idempotency-key': randomUUID() }), context),
      await handler(form({ action: 'guide', ...guideFields }), context),
      await handler(post({ action: 'summarize' }), context),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    await Promise.all(later);
    expect(proxy.seen).toEqual([]);
    // The count is real: a submit is seen at the store's door.
    expect((await handler(submit(submitRequest()), context)).status).toBe(201);
    await Promise.all(later);
    expect(proxy.seen.length).toBeGreaterThan(0);
  });

  it('neither over MCP: tools/list and both tools', async () => {
    const { later, waitUntil } = afterReply();
    const rpc = (id: number, method: string, params?: object) =>
      doors.mcp(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params && { params }) }),
        }),
        { waitUntil },
      );
    const { action: _g, ...guideArgs } = EXAMPLE_REQUESTS.guide;
    const { action: _s, ...summarizeArgs } = EXAMPLE_REQUESTS.summarize;
    const replies = [
      await rpc(1, 'tools/list'),
      await rpc(2, 'tools/call', { name: 'request_guidance', arguments: guideArgs }),
      await rpc(3, 'tools/call', { name: 'review_proposal_request', arguments: summarizeArgs }),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    for (const reply of replies) expect(await reply.text()).not.toMatch(/"isError":true/);
    await Promise.all(later);
    expect(proxy.seen).toEqual([]);
  });
});

describe('a question the site could not answer', () => {
  const unanswered = {
    action: 'guide',
    // A name and contact details first, so the bound alone would not drop them.
    question:
      'Ann Example asks, ann.example@example.com here, +49 170 1234567, see https://example.com/brief: can you port our mainframe COBOL payroll onto something newer, quickly and quietly, before the auditors arrive?',
    industry: 'retail',
    company_size: '11-50',
    primary_need: 'not-sure',
  };
  const day = () => new Date().toISOString().slice(0, 10);

  it('is counted by its topic words only, after the reply, and owes the day’s questions job', async () => {
    const { later, waitUntil } = afterReply();
    const reply = await doors.http(post(unanswered), { waitUntil });
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as { capabilities: unknown[] }).capabilities).toEqual([]);
    // Nothing before the reply: the count is work that follows it.
    expect(proxy.seen).toEqual([]);
    expect(later).toHaveLength(1);
    await Promise.all(later);

    const windows = await stored('windows/');
    expect(windows).toHaveLength(1);
    const topics = windows[0]!.value as Record<string, number>;
    expect(topics).toEqual({ 'asks here see port mainframe cobol': 1 });
    const kept = JSON.stringify(topics);
    for (const detail of ['ann', 'example', '@', '49', '170', '1234567', 'https', 'brief', 'auditors'])
      expect(kept, detail).not.toContain(detail);

    const jobs = await stored('jobs/');
    expect(jobs.map((j) => j.key)).toEqual([`jobs/${day()}-questions`]);
    const job = jobs[0]!.value as JobRecord;
    expect(job).toMatchObject({ kind: 'questions', period: day(), message: { email: 'owed', chat: 'owed' } });
    // Due once the day is over, and listed there for the scheduled run.
    const dayEnd = new Date(Date.parse(`${day()}T00:00:00.000Z`) + 86_400_000).toISOString();
    expect(job.not_before).toBe(dayEnd);
    expect((await stored('due/')).map((d) => d.key)).toEqual([`due/${dayEnd}/jobs/${day()}-questions`]);
    // Nothing of the question is in the job either.
    expect(JSON.stringify(job)).not.toMatch(/mainframe|example\.com|1234567/);

    // The same topic again counts once more; the job is owed once.
    await doors.http(post(unanswered), { waitUntil });
    await Promise.all(later);
    expect((await stored('windows/'))[0]!.value).toEqual({ 'asks here see port mainframe cobol': 2 });
    expect(await stored('jobs/')).toHaveLength(1);
  });

  it('keeps at most a hundred topics a day; a question of no topic words is not counted', async () => {
    const { later, waitUntil } = afterReply();
    // The day's count, as 99 questions of 99 topics left it.
    const today = new Date(`${day()}T00:00:00.000Z`);
    const filled = Object.fromEntries(Array.from({ length: 99 }, (_, n) => [`earlier topic ${'x'.repeat(n + 1)}`, 1]));
    await getStore({ name: PROPOSALS_STORE, consistency: 'strong' }).setJSON(
      windowKey(windowOf('questions', today, DAY_MS)),
      filled,
    );
    const ask = async (question: string) => {
      expect((await doors.http(post({ ...unanswered, question }), { waitUntil })).status).toBe(200);
      await Promise.all(later);
    };
    await ask('Please explain quantum annealing for us.');
    await ask('Please explain lattice cryptography for us.');
    await ask('Please explain quantum annealing for us.');
    const topics = (await stored('windows/'))[0]!.value as Record<string, number>;
    expect(Object.keys(topics)).toHaveLength(100);
    expect(topics['explain quantum annealing']).toBe(2);
    expect(topics['explain lattice cryptography']).toBeUndefined();

    const before = proxy.seen.length;
    await ask('Is it ok? 2026, 42 and 7.');
    expect(proxy.seen.length).toBe(before);
  });
});
