/**
 * Web Bot Auth through the shipped function, in-process: agents sign their submits with two
 * independent libraries, each operator's Ed25519 key served by a key-directory stand-in on loopback,
 * fetched over plain HTTP because AGENT_DIRECTORY_LOOPBACK_HTTP=1 is set before the first request (as
 * npm start sets it). Every request is answered as usual; each stored request carries its
 * agent_identity, and the CRM record, the sales notice and the inbox's list and CSV show it. Each
 * case of the profile is here once (wrong tag, expired, future, unknown key, directory down,
 * malformed or silent); its finer points, replayed nonces among them, are tested on the verifier
 * (tests/unit/agent-identity.test.ts). A case whose directory fails gets a directory of its own: the
 * instance remembers a failed directory for a while (AGENT_IDENTITY_LIMITS.failureCacheSeconds).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listText, toCsv } from '../../scripts/inbox/export.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { LOOPBACK_DIRECTORY_ENV } from '../../src/contract/web-bot-auth.ts';
import {
  newAgentKey,
  signWithHttpMessageSignatures,
  signWithWebBotAuth,
  withContentDigest,
  type AgentKey,
  type Unsigned,
} from '../helpers/agent-signers.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { startKeyDirectory, type DirectoryBehaviour, type KeyDirectoryServer } from '../helpers/key-directory.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import { restoreEnv, shippedFunction, SITE, storedRecords, type ShippedFunction } from '../helpers/shipped-function.ts';
import { mailsTo, startSmtp, type TestSmtp, readableMail } from '../helpers/smtp.ts';

const SALES = 'proposals@kestrelcloud.example';
let blobs: TestBlobs;
let crm: TestCrmServer;
let smtp: TestSmtp;
let fn: ShippedFunction;
let env: Record<string, string>;
let keyA: AgentKey;
let keyB: AgentKey;
let dirA: KeyDirectoryServer;
let dirB: KeyDirectoryServer;

beforeAll(async () => {
  [keyA, keyB] = await Promise.all([newAgentKey(), newAgentKey()]);
  [blobs, crm, smtp, dirA, dirB] = await Promise.all([
    startBlobs(),
    startCrmServer(),
    startSmtp(),
    startKeyDirectory([keyA.publicJwk]),
    startKeyDirectory([keyB.publicJwk]),
  ]);
  env = { ...loopbackDeliveryEnv(crm, smtp), [LOOPBACK_DIRECTORY_ENV]: '1' };
  fn = await shippedFunction(env);
});

afterAll(async () => {
  restoreEnv(env);
  await Promise.all([crm?.stop(), smtp?.stop(), dirA?.stop(), dirB?.stop()]);
  await blobs?.stop();
});

const now = () => new Date();
const later = (seconds: number) => new Date(Date.now() + seconds * 1000);

function submit(company: string): Unsigned {
  return {
    method: 'POST',
    url: `${SITE}/api/proposal`,
    headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ ...EXAMPLE_REQUESTS.submit, company, email: `agent-${randomUUID()}@example.com` }),
  };
}

async function send(request: Unsigned, headers: Record<string, string>) {
  const res = await fn.handle(new Request(request.url, { method: 'POST', headers, body: request.body ?? null }));
  const body = (await res.json()) as { request_id?: string };
  return { status: res.status, requestId: body.request_id! };
}

/** The stored request as the webhook CRM received it. */
function delivered(requestId: string): { agent_identity?: Record<string, unknown> } {
  const found = crm.requests.find((r) => r.body.includes(requestId));
  expect(found, `no CRM delivery of ${requestId}`).toBeDefined();
  return JSON.parse(found!.body) as { agent_identity?: Record<string, unknown> };
}

/** The sales notice of a request, sent after the reply (waitUntil). */
async function noticeOf(requestId: string): Promise<string> {
  await fn.settle();
  const notice = mailsTo(smtp.messages, SALES)
    .map((m) => readableMail(m.raw))
    .find((text) => text.includes(requestId));
  expect(notice, `no sales notice of ${requestId}`).toBeDefined();
  return notice!.replace(/\s+/g, ' ');
}

describe('signed submits to the shipped function', () => {
  it('stores a web-bot-auth signed submit (string Signature-Agent) as verified, shown to sales, the CRM and the inbox', async () => {
    const request = submit('Signed String Form Ltd');
    request.headers['signature-agent'] = `"${dirA.origin}"`;
    const headers = await signWithWebBotAuth(keyA, request, { created: now(), expires: later(60) });
    const answer = await send(request, headers);
    expect(answer.status).toBe(201);
    const identity = delivered(answer.requestId).agent_identity;
    expect(identity).toEqual({
      outcome: 'verified',
      operator: dirA.origin,
      key_id: keyA.keyId,
      covered: ['"@authority"', '"signature-agent"'],
      body_covered: false,
    });
    const line = `sent by ${new URL(dirA.origin).host} agent, verified; body not covered`;
    expect(await noticeOf(answer.requestId)).toContain(`Agent identity: ${line}`);
    // `npm run inbox` and its CSV export, of the stored request.
    const stored = (await storedRecords()).filter((r) => r.request_id === answer.requestId);
    expect(
      listText(stored)
        .split('\n')
        .find((l) => l.includes(answer.requestId)),
    ).toBeDefined();
    expect(listText(stored)).toContain(`agent: ${line}`);
    const csv = toCsv(stored);
    expect(csv.split('\r\n')[0]).toContain('agent_identity');
    expect(csv).toContain(line);
  });

  it('stores an http-message-signatures signed submit (dictionary Signature-Agent, content-digest) as verified with the body covered', async () => {
    const request = withContentDigest(submit('Signed Dictionary Form Ltd'));
    request.headers['signature-agent'] = `agent1="${dirB.origin}"`;
    const headers = await signWithHttpMessageSignatures(keyB, request, {
      fields: ['@authority', 'signature-agent;key="agent1"', 'content-digest'],
      params: ['created', 'expires', 'keyid', 'alg', 'tag', 'nonce'],
      values: { created: now(), expires: later(60), tag: 'web-bot-auth', nonce: randomUUID() },
    });
    const answer = await send(request, headers);
    expect(answer.status).toBe(201);
    expect(delivered(answer.requestId).agent_identity).toMatchObject({
      outcome: 'verified',
      operator: dirB.origin,
      key_id: keyB.keyId,
      body_covered: true,
    });
  });

  it('stores a signature without @authority as invalid, and answers as usual', async () => {
    const request = submit('Unbound Signature Ltd');
    request.headers['signature-agent'] = `"${dirA.origin}"`;
    const headers = await signWithWebBotAuth(keyA, request, { created: now(), expires: later(60) }, [
      'signature-agent',
    ]);
    const answer = await send(request, headers);
    expect(answer.status).toBe(201);
    expect(delivered(answer.requestId).agent_identity).toMatchObject({
      outcome: 'invalid',
      reason: 'the signature does not cover @authority',
    });
  });

  // Each a submit answered 201 as usual, its signature recorded with the outcome and reason named.
  const cases: {
    name: string;
    /** The dictionary form names operator B (http-message-signatures); otherwise A's string form. */
    dictionary?: true;
    directory?: DirectoryBehaviour;
    sign: (request: Unsigned) => Promise<Record<string, string>>;
    expected: { outcome: string; reason: string };
  }[] = [
    {
      name: 'a wrong tag',
      dictionary: true,
      sign: (request) =>
        signWithHttpMessageSignatures(keyB, request, {
          fields: ['@authority', 'signature-agent;key="agent1"'],
          params: ['created', 'expires', 'keyid', 'tag'],
          values: { created: now(), expires: later(60), tag: 'not-web-bot-auth' },
        }),
      expected: { outcome: 'invalid', reason: 'no signature is tagged web-bot-auth' },
    },
    {
      name: 'an expired signature',
      sign: (request) => signWithWebBotAuth(keyA, request, { created: later(-300), expires: later(-120) }),
      expected: { outcome: 'invalid', reason: 'the signature has expired' },
    },
    {
      name: 'a created time in the future',
      sign: (request) => signWithWebBotAuth(keyA, request, { created: later(120), expires: later(180) }),
      expected: { outcome: 'invalid', reason: 'the signature was created in the future' },
    },
    {
      name: 'a key the operator does not publish',
      sign: async (request) => signWithWebBotAuth(await newAgentKey(), request, { created: now(), expires: later(60) }),
      expected: { outcome: 'invalid', reason: "the keyid is not in the operator's key directory" },
    },
    {
      name: 'a directory that is down',
      directory: { kind: 'drop' },
      sign: (request) => signWithWebBotAuth(keyA, request, { created: now(), expires: later(60) }),
      expected: { outcome: 'unverified', reason: 'the key directory could not be reached' },
    },
    {
      name: 'a malformed directory',
      directory: { kind: 'body', body: '{"keys": "none"}' },
      sign: (request) => signWithWebBotAuth(keyA, request, { created: now(), expires: later(60) }),
      expected: { outcome: 'unverified', reason: 'the key directory has no keys list' },
    },
  ];
  for (const c of cases) {
    it(`stores a submit with ${c.name} as ${c.expected.outcome}, answered as usual`, async () => {
      const own = c.directory && (await startKeyDirectory([keyA.publicJwk]));
      try {
        own?.behave(c.directory!);
        const request = submit(`Case ${c.name}`);
        request.headers['signature-agent'] = c.dictionary ? `agent1="${dirB.origin}"` : `"${(own ?? dirA).origin}"`;
        const answer = await send(request, await c.sign(request));
        expect(answer.status).toBe(201);
        expect(delivered(answer.requestId).agent_identity).toMatchObject(c.expected);
      } finally {
        await own?.stop();
      }
    });
  }

  it('stores a submit whose key directory does not answer as unverified, answered once the directory timeout gave up on it', async () => {
    const silent = await startKeyDirectory([keyB.publicJwk]);
    try {
      silent.behave({ kind: 'hang' });
      const request = submit('Slow Directory Ltd');
      request.headers['signature-agent'] = `agent1="${silent.origin}"`;
      const headers = await signWithHttpMessageSignatures(keyB, request, {
        fields: ['@authority', 'signature-agent;key="agent1"'],
        params: ['created', 'expires', 'keyid', 'tag'],
        values: { created: now(), expires: later(60), tag: 'web-bot-auth' },
      });
      const answer = await send(request, headers);
      expect(answer.status).toBe(201);
      // The directory was asked, never answered, and the reply came anyway: the function's own timeout ended the wait.
      expect(silent.fetches).toBe(1);
      expect(delivered(answer.requestId).agent_identity).toMatchObject({
        outcome: 'unverified',
        reason: 'the key directory did not answer in time',
      });
      // An unsigned submit records the absence.
      const unsigned = submit('Unsigned Ltd');
      const plain = await send(unsigned, unsigned.headers);
      expect(delivered(plain.requestId).agent_identity).toEqual({ outcome: 'absent' });
    } finally {
      await silent.stop();
    }
  });
});
