/**
 * The scheduled function, netlify/functions/owed-work.mts, called as Netlify calls it: its default
 * export, on Netlify's clock. Its schedule is read statically from its file, as Netlify (and the
 * local runner, scripts/serve/schedule.ts) reads it, and equals what the code exports, as the HTTP
 * function's paths do. A request stored while the CRM and the chat webhook refuse is delivered,
 * confirmed and announced by the schedule alone, with no POST after the first, once the clock
 * passed its retry; the day's unanswered questions reach sales after the day, and the job then goes.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { getStore, setEnvironmentContext } from '@netlify/blobs';
import { listFunction, listFunctions } from '@netlify/zip-it-and-ship-it';
import { CronExpressionParser } from 'cron-parser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import proposal, { config as proposalConfig } from '../../netlify/functions/proposal.mts';
import owedWork, { config as scheduledConfig } from '../../netlify/functions/owed-work.mts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { PROPOSALS_STORE } from '../../src/proposal/store/blobs.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { scheduleOf } from '../../scripts/serve/schedule.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { OK, startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { afterReply } from '../helpers/function-doors.ts';
import { captureLogLines } from '../helpers/log-lines.ts';
import { headerLines, mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { newWebhookSecret, submitRequest } from '../helpers/submit-fixtures.ts';

const FUNCTIONS = 'netlify/functions';
const SALES = 'sales@kestrel.example';
const VARIABLES = {
  CRM_PROVIDER: 'webhook',
  CRM_WEBHOOK_URL: '',
  CRM_WEBHOOK_SECRET: newWebhookSecret(),
  SMTP_URL: '',
  MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
  NOTIFY_EMAIL: SALES,
  NOTIFY_WEBHOOK_URL: '',
};
const saved = Object.fromEntries(Object.keys(VARIABLES).map((name) => [name, process.env[name]]));

let blobs: TestBlobs;
let crm: TestCrmServer;
let chat: TestCrmServer;
let smtp: TestSmtp;
let siteID: string;

beforeAll(async () => {
  [blobs, crm, chat, smtp] = await Promise.all([startBlobs(), startCrmServer(), startCrmServer(), startSmtp()]);
  // Both entries read the process's environment, as on Netlify: set before the first invocation.
  Object.assign(process.env, {
    ...VARIABLES,
    CRM_WEBHOOK_URL: `${crm.url}/crm`,
    SMTP_URL: smtp.url,
    NOTIFY_WEBHOOK_URL: `${chat.url}/hook`,
  });
});
afterAll(async () => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  await Promise.all([crm?.stop(), chat?.stop(), smtp?.stop()]);
  await blobs?.stop();
});
beforeEach(() => {
  siteID = `owed-${randomUUID()}`;
  setEnvironmentContext({ siteID, token: blobs.token, edgeURL: blobs.url, uncachedEdgeURL: blobs.url });
  for (const server of [crm, chat]) {
    server.requests.length = 0;
    server.behave(OK);
  }
  smtp.messages.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Netlify's clock, moved: the wall clock only (every claim and bound runs on the monotonic one). */
function moveClockTo(at: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
}

/** Everything under `prefix`, read straight from the Blobs server. */
async function stored(prefix: string): Promise<Array<{ key: string; value: unknown }>> {
  const store = getStore({ name: PROPOSALS_STORE, consistency: 'strong' });
  const { blobs: listed } = await store.list({ prefix });
  return Promise.all(
    listed.map(async ({ key }) => ({ key, value: (await store.get(key, { type: 'json' })) as unknown })),
  );
}

const scheduledRuns = (lines: ReturnType<typeof captureLogLines>) =>
  lines.filter((l) => l.entry['event'] === 'scheduled_run').map((l) => l.entry);

describe('the schedule, as Netlify reads it', () => {
  it('is read statically from the file and equals what the code exports; the HTTP function keeps its paths', async () => {
    const listed = await listFunctions(FUNCTIONS, { parseISC: true });
    // One HTTP function and one scheduled one: the site's HTTP surface stays one function.
    expect(listed.map((f) => f.name).sort()).toEqual(['owed-work', 'proposal']);

    const scheduled = await listFunction(join(FUNCTIONS, 'owed-work.mts'), { parseISC: true });
    expect(scheduled?.schedule).toBe(scheduledConfig.schedule);
    expect(scheduledConfig.schedule).toBe('* * * * *');
    // A schedule cannot share a file with a path: no route, no invocation over HTTP.
    expect(scheduled?.routes).toEqual([]);
    expect(Object.keys(scheduledConfig)).toEqual(['schedule']);
    // The local runner (npm start, npm run dev) reads the same schedule.
    expect(scheduleOf(join(FUNCTIONS, 'owed-work.mts'))).toBe(scheduledConfig.schedule);

    const http = await listFunction(join(FUNCTIONS, 'proposal.mts'), { parseISC: true });
    expect(http?.schedule).toBeUndefined();
    expect(http?.routes?.map((r) => r.pattern)).toEqual(proposalConfig.path);
    for (const route of http?.routes ?? []) expect(route.methods).toEqual(proposalConfig.method);
  });

  it('runs at least once a minute (UTC), so owed work waits at most a minute after it is due', () => {
    const cron = CronExpressionParser.parse(scheduledConfig.schedule!, { tz: 'UTC' });
    const runs = Array.from({ length: 5 }, () => cron.next().getTime());
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeLessThanOrEqual(60_000);
  });
});

describe('owed work done by the schedule alone', () => {
  it('a request stored while the CRM and the chat refuse is delivered, confirmed and announced, with no second POST', async () => {
    const lines = captureLogLines();
    crm.behave({ kind: 'status', status: 503 });
    chat.behave({ kind: 'status', status: 503 });
    const { later, waitUntil } = afterReply();
    const stamp = Date.now();
    const reply = await proposal(
      new Request('http://127.0.0.1/api/proposal', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(submitRequest()),
      }),
      { waitUntil } as unknown as Parameters<typeof proposal>[1],
    );
    const body = (await reply.json()) as { status: string; request_id: string; confirmation_email: string };
    expect(reply.status).toBe(202);
    expect(body).toMatchObject({ status: 'pending', confirmation_email: 'not_sent' });
    await Promise.all(later);
    const id = body.request_id;
    // Tried once each, then owed: the sales email went out with the reply's work.
    expect(crm.requests).toHaveLength(1);
    expect(chat.requests).toHaveLength(1);
    expect(mailsTo(smtp.messages, submitRequest().email)).toHaveLength(0);
    expect(mailsTo(smtp.messages, SALES)).toHaveLength(1);
    const owed = (await stored(`requests/${id}`))[0]!.value as ProposalRecord;
    expect(owed.claim).toBeUndefined();
    expect(Object.keys(owed.work ?? {}).sort()).toEqual(['crm', 'notice_chat']);
    expect(owed.due_at).toBe(owed.work!['crm']!.next_at);
    expect((await stored('due/')).map((d) => d.key)).toEqual([`due/${owed.due_at}/requests/${id}`]);

    // Both heal; a run before the retry is due does nothing.
    crm.behave(OK);
    chat.behave(OK);
    await owedWork();
    expect(crm.requests).toHaveLength(1);
    expect(scheduledRuns(lines).at(-1)).toMatchObject({ due: 0, done: 0 });

    // Past the retry, one run of the scheduled function does everything owed.
    moveClockTo(Date.parse(owed.due_at!) + 1_000);
    await owedWork();
    expect(scheduledRuns(lines).at(-1)).toMatchObject({ due: 1, done: 1, busy: 0, stopped: 0 });
    expect(crm.requests).toHaveLength(2);
    // The retry is the same delivery: one webhook-id, the request's own.
    expect(crm.requests.map((r) => r.headers['webhook-id'])).toEqual([id, id]);
    const confirmations = mailsTo(smtp.messages, submitRequest().email);
    expect(confirmations).toHaveLength(1);
    const messageId = headerLines(confirmations[0]!.raw).find(([name]) => /^message-id$/i.test(name))?.[1];
    expect(messageId).toContain(id);
    expect(chat.requests).toHaveLength(2);
    expect(chat.requests[1]!.body).toContain(id);
    expect(mailsTo(smtp.messages, SALES)).toHaveLength(1);

    const done = (await stored(`requests/${id}`))[0]!.value as ProposalRecord;
    expect(done.delivery).toMatchObject({ state: 'received', crm: 'webhook' });
    expect(Date.parse(done.delivery.delivered_at!)).toBeGreaterThan(stamp + 60_000);
    expect(done.confirmation_email.state).toBe('sent');
    expect(done.notification).toEqual({ email: 'sent', chat: 'sent' });
    expect(done.claim).toBeUndefined();
    expect(done.work).toEqual({});
    expect(done.due_at).toBeUndefined();
    expect(await stored('due/')).toEqual([]);

    // Nothing is owed any more: a later run sends nothing again.
    moveClockTo(Date.parse(owed.due_at!) + 120_000);
    await owedWork();
    expect(scheduledRuns(lines).at(-1)).toMatchObject({ due: 0 });
    expect([crm.requests.length, chat.requests.length, smtp.messages.length]).toEqual([2, 2, 2]);
  });

  it("tells sales the day's unanswered questions once the day is over, then forgets the job", async () => {
    const lines = captureLogLines();
    const { later, waitUntil } = afterReply();
    const reply = await proposal(
      new Request('http://127.0.0.1/api/proposal', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...EXAMPLE_REQUESTS.guide,
          question: 'Can you port our mainframe COBOL payroll?',
          primary_need: 'not-sure',
        }),
      }),
      { waitUntil } as unknown as Parameters<typeof proposal>[1],
    );
    expect(reply.status).toBe(200);
    await Promise.all(later);
    const day = new Date().toISOString().slice(0, 10);
    const [job] = await stored(`jobs/${day}-questions`);
    expect(job).toBeDefined();

    await owedWork();
    expect(mailsTo(smtp.messages, SALES)).toHaveLength(0);

    const dayEnd = Date.parse(`${day}T00:00:00.000Z`) + 86_400_000;
    moveClockTo(dayEnd + 1_000);
    await owedWork();
    const [mail] = mailsTo(smtp.messages, SALES);
    expect(mail?.raw).toMatch(/1 questions the site could not answer/);
    expect(mail?.raw).toContain('port mainframe cobol payroll');
    expect(chat.requests).toHaveLength(1);
    expect(chat.requests[0]!.body).toContain('port mainframe cobol payroll (1)');
    expect(((await stored(`jobs/${day}-questions`))[0]!.value as { message: unknown }).message).toEqual({
      email: 'sent',
      chat: 'sent',
    });

    // Kept two days past its day for a late run, then deleted by its last step, with its due entry.
    moveClockTo(dayEnd + 2 * 86_400_000 + 1_000);
    await owedWork();
    expect(await stored('jobs/')).toEqual([]);
    expect(await stored('due/')).toEqual([]);
    expect(mailsTo(smtp.messages, SALES)).toHaveLength(1);
    expect(scheduledRuns(lines).every((run) => run['stopped'] === 0)).toBe(true);
  });
});
