/**
 * Texts that fit every door: the actions state facts, and each door adds its own words. Every reply
 * kind both doors can reach (validation problems, a key reused or in use, the store unavailable,
 * submit results, guide, summarize) is driven through the HTTP API and through MCP on one pipeline,
 * against a real Blobs server and CRM stand-in: no MCP result or problem names an HTTP header,
 * method or path, and no HTTP reply names a tool or its argument. A delay is `retry_after_seconds`
 * on both, and the HTTP door also sends it as Retry-After.
 */
import { randomUUID } from 'node:crypto';
import { setEnvironmentContext } from '@netlify/blobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { OK, startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { functionDoors, type Doors } from '../helpers/function-doors.ts';
import { envOf, newWebhookSecret, submitRequest } from '../helpers/submit-fixtures.ts';
import { rpcMessage } from '../helpers/mcp-reply.ts';

/** What only HTTP has: its headers, methods, the endpoint's path and its body selector `{"action":"…"}`. */
const HTTP_MECHANICS =
  /Idempotency-Key|Idempotent-Replayed|Retry-After|Content-Type|\b(?:GET|POST|PUT|DELETE|OPTIONS)\b|\/api\/proposal|\{\\*"action\\*":\\*"\w+\\*"\}/;
/** What only MCP has: the tools, their argument and the listing. */
const MCP_MECHANICS =
  /idempotency_key|request_guidance|review_proposal_request|submit_proposal_request|tools\/list|inputSchema/;

const TOOLS = { guide: 'request_guidance', summarize: 'review_proposal_request', submit: 'submit_proposal_request' };
const guideFields = {
  question: 'We need to migrate our data center to the cloud.',
  industry: 'logistics',
  company_size: '201-1000',
  primary_need: 'cloud-engineering',
};
const { action: _action, website: _website, form_started_at: _started, ...submitFields } = submitRequest();

let blobs: TestBlobs;
let crm: TestCrmServer;
/** Both doors of one instance, so of one pipeline and one configuration. */
let doors: Doors;

beforeAll(async () => {
  [blobs, crm] = await Promise.all([startBlobs(), startCrmServer()]);
  doors = functionDoors(
    { inUseWaitMs: 0 },
    envOf({ CRM_PROVIDER: 'webhook', CRM_WEBHOOK_URL: `${crm.url}/crm`, CRM_WEBHOOK_SECRET: newWebhookSecret() }),
  );
});
afterAll(async () => {
  await crm?.stop();
  await blobs?.stop();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
  body: Record<string, unknown>;
}

async function overHttp(action: string, fields: object, key?: string): Promise<Answer> {
  const res = await doors.http(
    new Request('http://127.0.0.1/api/proposal', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) },
      body: JSON.stringify({ action, ...fields }),
    }),
  );
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text, body: JSON.parse(text) };
}

let id = 0;
async function overMcp(action: keyof typeof TOOLS, fields: object, key?: string): Promise<Answer> {
  const args = { ...fields, ...(key === undefined ? {} : { idempotency_key: key }) };
  const res = await doors.mcp(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method: 'tools/call',
        params: { name: TOOLS[action], arguments: args },
      }),
    }),
  );
  const message = await rpcMessage(res);
  const text = JSON.stringify(message);
  const result = message.result as { isError?: boolean; content: { text: string }[] };
  const body = JSON.parse(result.content[0]!.text) as Record<string, unknown>;
  return { status: result.isError ? Number(body.status) : 200, retryAfter: null, text, body };
}

type Door = (action: keyof typeof TOOLS, fields: object, key?: string) => Promise<Answer>;

/** Every reply kind a door can reach, by name. */
async function everyReply(door: Door): Promise<Record<string, Answer>> {
  const replies: Record<string, Answer> = {};
  replies.guide = await door('guide', guideFields);
  replies.summarize = await door('summarize', { name: 'Ann' });
  replies.invalid = await door('summarize', { company_size: 'huge' });
  replies.noConsent = await door('submit', { ...submitFields, consent: false }, randomUUID());
  replies.secret = await door(
    'submit',
    { ...submitFields, constraints: 'Our key is AKIAIOSFODNN7EXAMPLE.' },
    randomUUID(),
  );
  replies.noKey = await door('submit', submitFields);
  replies.badKey = await door('submit', submitFields, 'has space');
  replies.secretKey = await door('submit', submitFields, 'AKIAIOSFODNN7EXAMPLE');
  crm.behave(OK);
  const key = randomUUID();
  replies.received = await door('submit', submitFields, key);
  replies.replayed = await door('submit', submitFields, key);
  replies.reused = await door('submit', { ...submitFields, timeline: 'Next year.' }, key);
  crm.behave({ kind: 'status', status: 503 });
  replies.pending = await door('submit', submitFields, randomUUID());
  // The first holds the request's claim while the CRM takes its time; the second finds it in use.
  crm.behave({ kind: 'status', status: 200, body: '{"ok":true}', delayMs: 400 });
  const busyKey = randomUUID();
  const first = door('submit', submitFields, busyKey);
  await new Promise((resolve) => setTimeout(resolve, 150));
  replies.inUse = await door('submit', submitFields, busyKey);
  await first;
  crm.behave(OK);
  // Nothing answers on the discard port: the store is unavailable.
  setEnvironmentContext({
    siteID: blobs.siteID,
    token: blobs.token,
    edgeURL: 'http://127.0.0.1:9',
    uncachedEdgeURL: 'http://127.0.0.1:9',
  });
  try {
    replies.storeDown = await door('submit', submitFields, randomUUID());
  } finally {
    setEnvironmentContext({ siteID: blobs.siteID, token: blobs.token, edgeURL: blobs.url, uncachedEdgeURL: blobs.url });
  }
  return replies;
}

const EXPECTED = {
  guide: 200,
  summarize: 200,
  invalid: 422,
  noConsent: 422,
  secret: 422,
  noKey: 400,
  badKey: 400,
  secretKey: 422,
  received: 201,
  replayed: 201,
  reused: 422,
  pending: 202,
  inUse: 409,
  storeDown: 503,
};

describe('texts that fit every door', () => {
  it('no MCP result or problem names an HTTP header, method or path', { timeout: 60_000 }, async () => {
    const replies = await everyReply(overMcp);
    const statuses = Object.fromEntries(Object.entries(replies).map(([name, r]) => [name, r.status]));
    // An MCP result has no status: a success counts as 200.
    expect(statuses).toEqual({ ...EXPECTED, received: 200, replayed: 200, pending: 200 });
    for (const [name, reply] of Object.entries(replies)) expect(reply.text, name).not.toMatch(HTTP_MECHANICS);
    expect(replies.noKey!.body.detail).toMatch(/the idempotency_key argument/);
    expect(replies.guide!.text).toMatch(/review_proposal_request tool/);
    expect(replies.inUse!.body.retry_after_seconds).toBeGreaterThan(0);
    expect(replies.storeDown!.body.retry_after_seconds).toBeGreaterThan(0);
  });

  it('no HTTP reply names a tool or its argument; a delay is also Retry-After', { timeout: 60_000 }, async () => {
    const replies = await everyReply(overHttp);
    const statuses = Object.fromEntries(Object.entries(replies).map(([name, r]) => [name, r.status]));
    expect(statuses).toEqual(EXPECTED);
    for (const [name, reply] of Object.entries(replies)) expect(reply.text, name).not.toMatch(MCP_MECHANICS);
    expect(replies.noKey!.body.detail).toMatch(/the Idempotency-Key header/);
    expect(replies.guide!.text).toMatch(/\{\\"action\\":\\"summarize\\"\}/);
    for (const name of ['inUse', 'storeDown', 'pending']) {
      const seconds = replies[name]!.body.retry_after_seconds;
      expect(seconds, name).toBeGreaterThan(0);
      expect(replies[name]!.retryAfter, name).toBe(String(seconds));
    }
  });
});
