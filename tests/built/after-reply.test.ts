/**
 * What the reply waits for, and what follows it: the CRM and the confirmation email before the reply;
 * the sales notice and then the sweep after it, through the invocation's waitUntil, and only for a
 * request that reached the pipeline (not OPTIONS, not an invalid body).
 */
import { randomUUID } from 'node:crypto';
import { setEnvironmentContext } from '@netlify/blobs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import knowledgeJson from '../../.generated/knowledge.json' with { type: 'json' };
import * as validators from '../../.generated/validators.mjs';
import { createProposalHandler } from '../../src/proposal/http/handler.ts';
import { createActionPipeline } from '../../src/proposal/actions/pipeline.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { newWebhookSecret, submitRequest } from '../helpers/submit-fixtures.ts';

const k = knowledgeJson as Knowledge;
const API = 'http://127.0.0.1/api/proposal';
const VARIABLES = [
  'CRM_PROVIDER',
  'CRM_WEBHOOK_URL',
  'CRM_WEBHOOK_SECRET',
  'SMTP_URL',
  'MAIL_FROM',
  'NOTIFY_WEBHOOK_URL',
];
let blobs: TestBlobs;
let crm: TestCrmServer;
let chat: TestCrmServer;
let smtp: TestSmtp;
const handle = createProposalHandler(k, createActionPipeline(k, validators, { inUseWaitMs: 300 }));

beforeAll(async () => {
  [blobs, crm, chat, smtp] = await Promise.all([startBlobs(), startCrmServer(), startCrmServer(), startSmtp()]);
  Object.assign(process.env, {
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${crm.url}/crm`,
    CRM_WEBHOOK_SECRET: newWebhookSecret(),
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
    NOTIFY_WEBHOOK_URL: `${chat.url}/hook`,
  });
});
afterAll(async () => {
  for (const name of VARIABLES) delete process.env[name];
  await Promise.all([crm?.stop(), chat?.stop(), smtp?.stop()]);
  await blobs?.stop();
});
beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  setEnvironmentContext({
    siteID: `after-${randomUUID()}`,
    token: blobs.token,
    edgeURL: blobs.url,
    uncachedEdgeURL: blobs.url,
  });
  chat.requests.length = 0;
});

function invocation() {
  const later: Promise<unknown>[] = [];
  return { later, context: { waitUntil: (work: Promise<unknown>) => void later.push(work) } };
}

const submit = (body: unknown, key = randomUUID()) =>
  new Request(API, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });

describe('after the reply', () => {
  it('the reply waits for the CRM and the confirmation, not for the chat notice, which follows in waitUntil', async () => {
    chat.behave({ kind: 'status', status: 200, delayMs: 1_500 });
    const { later, context } = invocation();
    const started = performance.now();
    const response = await handle(submit(submitRequest()), context);
    expect(response.status).toBe(201);
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(mailsTo(smtp.messages, submitRequest().email).length).toBeGreaterThan(0);
    expect(later).toHaveLength(1);
    await Promise.all(later);
    expect(chat.requests).toHaveLength(1);
  });

  it('no work after the reply for OPTIONS or an invalid request', async () => {
    const { later, context } = invocation();
    await handle(new Request(API, { method: 'OPTIONS' }), context);
    await handle(submit({ action: 'submit', consent: true }), context);
    expect(later).toEqual([]);
  });
});
