/**
 * The HTTP door in front of the pipeline, on a store in memory: who may POST through a browser, and
 * the client's network handed on as a hash only, by both doors (the invocation carries the address;
 * the pipeline hashes it). Form posts, whose reply is a page of the built site, are
 * tests/built/form-posts.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clientNetworkKey } from '../../src/proposal/limits/client-network.ts';
import { createHttpDoor } from '../../src/proposal/doors/http.ts';
import { createMcpDoor } from '../../src/proposal/doors/mcp.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { invocationOf, KNOWLEDGE, loadMcpSdk, testIntake } from '../helpers/intake.ts';
import { memoryBlobs } from '../helpers/memory-blobs.ts';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';

const SITE = new URL(KNOWLEDGE.urls.home).origin;
const GUIDE = JSON.stringify({
  action: 'guide',
  question: 'We need to migrate to the cloud.',
  industry: 'logistics',
  company_size: '201-1000',
  primary_need: 'cloud-engineering',
});
const { form_started_at: _started, ...submitted } = submitRequest();

function doors() {
  const memory = memoryBlobs();
  const store = memory.store();
  const intake = testIntake({}, { store });
  const http = createHttpDoor(intake, KNOWLEDGE);
  const mcp = createMcpDoor(intake, loadMcpSdk);
  const records = async () =>
    Promise.all(
      (await store.listWhile('requests/')).map(async (key) => (await store.read(key))!.value as ProposalRecord),
    );
  return { http, mcp, intake, memory, records };
}

const post = (headers: Record<string, string>, body = GUIDE) =>
  new Request(`${SITE}/api/proposal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
const submitPost = (headers: Record<string, string>) =>
  post({ 'idempotency-key': randomUUID(), ...headers }, JSON.stringify(submitted));

describe('cross-site browser posts', () => {
  it('refuses a browser POST from another site with a 403 problem', async () => {
    const { http, memory } = doors();
    const handle = (request: Request) => http(invocationOf(request));
    const json = await handle(submitPost({ 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }));
    expect(json.status).toBe(403);
    expect(json.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await json.json()) as { type: string; status: number };
    expect(problem).toMatchObject({ type: `${SITE}/agents#problem-cross-site-request`, status: 403 });

    // An Origin alone (an older browser without fetch metadata), or "null" from an opaque origin.
    expect((await handle(submitPost({ origin: 'https://evil.example' }))).status).toBe(403);
    expect((await handle(submitPost({ origin: 'null' }))).status).toBe(403);
    expect((await handle(submitPost({ 'sec-fetch-site': 'same-site' }))).status).toBe(403);
    // Refused before the pipeline: the store was never asked.
    expect(memory.counts.reads + memory.counts.writes).toBe(0);
  });

  it("lets through the site's own pages and every client that is not a browser", async () => {
    const { http } = doors();
    const own = await http(invocationOf(post({ 'sec-fetch-site': 'same-origin', origin: SITE })));
    const curl = await http(invocationOf(post({ 'user-agent': 'curl/8.5.0' })));
    expect([own.status, curl.status]).toEqual([200, 200]);
    // Both reached the pipeline, which answered the guide.
    expect([await own.json(), await curl.json()]).toMatchObject([{ action: 'guide' }, { action: 'guide' }]);
  });
});

describe('the request source', () => {
  it('records the observed door, the claimed page, a bounded client name and only a hash of the network', async () => {
    const { http, intake, records } = doors();
    const reply = await http(
      invocationOf(submitPost({ 'proposal-channel': 'workspace', 'user-agent': 'x'.repeat(300) }), {
        waitUntil: () => undefined,
        ip: '203.0.113.9',
      }),
    );
    expect(reply.status).toBe(201);
    const [record] = await records();
    expect(record!.source).toEqual({
      channel: 'http-api',
      claimed_channel: 'workspace',
      client: 'x'.repeat(64),
      network: clientNetworkKey('203.0.113.9', intake.config.networkSecret),
    });
    expect(JSON.stringify(record)).not.toContain('203.0.113');
  });

  it('hands the MCP door, which builds its own source, the same network key', async () => {
    const viaMcp = async (ip: string | undefined) => {
      const { mcp, intake, records } = doors();
      const reply = await mcp(
        invocationOf(
          new Request(`${SITE}/mcp`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              'user-agent': 'claude-ai/1.0',
            },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'submit_proposal_request', arguments: { ...submitted, idempotency_key: randomUUID() } },
            }),
          }),
          { ip },
        ),
      );
      const message = await rpcMessage(reply);
      expect(message.result?.isError, JSON.stringify(message)).toBeUndefined();
      const [record] = await records();
      return { source: record!.source, secret: intake.config.networkSecret };
    };
    const known = await viaMcp('2001:db8:5::1');
    expect(known.source).toEqual({
      channel: 'mcp',
      client: 'claude-ai/1.0',
      network: clientNetworkKey('2001:db8:5:0::9', known.secret),
    });
    // An invocation without a known address runs the request as it came.
    expect((await viaMcp(undefined)).source).toEqual({ channel: 'mcp', client: 'claude-ai/1.0' });
  });
});
