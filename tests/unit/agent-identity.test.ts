/**
 * Web Bot Auth verification in-process: requests signed by two independent libraries
 * (tests/helpers/agent-signers.ts), each operator's key served by its own key-directory stand-in on
 * loopback (fetched over plain HTTP, as `npm start` allows: `loopbackHttp`), the clock injected,
 * nonces remembered in a store in memory. Every case is recorded, none refused: these are the
 * outcomes stored. Then through the doors: only a stored submit verifies, and a replay is caught
 * across instances.
 */
import { randomUUID } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { verifyAgentIdentity, type VerifyDeps } from '../../src/proposal/agent-identity/verify.ts';
import { agentIdentityText } from '../../src/contract/web-bot-auth.ts';
import { AGENT_IDENTITY_LIMITS, LOOPBACK_DIRECTORY_ENV } from '../../src/contract/web-bot-auth.ts';
import { cacheSeconds, isPublicAddress, KeyDirectories } from '../../src/proposal/agent-identity/directory.ts';
import type { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import { createHttpDoor } from '../../src/proposal/doors/http.ts';
import { createMcpDoor } from '../../src/proposal/doors/mcp.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { startKeyDirectory, type KeyDirectoryServer } from '../helpers/key-directory.ts';
import { memoryBlobs } from '../helpers/memory-blobs.ts';
import { invocationOf, KNOWLEDGE, loadMcpSdk, testIntake } from '../helpers/intake.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import {
  newAgentKey,
  signWithHttpMessageSignatures,
  signWithWebBotAuth,
  withContentDigest,
  type AgentKey,
  type Unsigned,
} from '../helpers/agent-signers.ts';

/**
 * Names a test makes resolve to chosen addresses (the directory resolves through node:dns in its
 * own guarded lookup); every other name resolves as usual.
 */
const dns = vi.hoisted(() => ({ names: new Map<string, string[]>(), asked: [] as string[] }));
vi.mock('node:dns', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns')>();
  const lookup = (host: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const fixed = dns.names.get(host);
    if (fixed === undefined) return (real.lookup as (...args: unknown[]) => void)(host, options, callback);
    dns.asked.push(host);
    const addresses: LookupAddress[] = fixed.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    process.nextTick(() => callback(null, addresses));
  };
  return { ...real, default: { ...real, lookup }, lookup };
});

const T = Date.parse('2026-11-28T06:00:00Z');
const at = (seconds: number) => new Date(T + seconds * 1000);
const URL_ = 'http://localhost:8888/api/proposal';
const BODY = JSON.stringify({ action: 'guide', goal: 'migrate' });

let keyA: AgentKey; // signs with web-bot-auth, published by operator A
let keyB: AgentKey; // signs with http-message-signatures, published by operator B
let stranger: AgentKey; // published nowhere
let dirA: KeyDirectoryServer;
let dirB: KeyDirectoryServer;
/** Where the verifier remembers nonces: one store, as every instance of a site shares it. */
let nonces: ProposalsStore;

beforeAll(async () => {
  [keyA, keyB, stranger] = await Promise.all([newAgentKey(), newAgentKey(), newAgentKey()]);
  [dirA, dirB] = await Promise.all([startKeyDirectory([keyA.publicJwk]), startKeyDirectory([keyB.publicJwk])]);
});
afterAll(async () => {
  await Promise.all([dirA.stop(), dirB.stop()]);
});
beforeEach(() => {
  for (const dir of [dirA, dirB]) {
    dir.behave({ kind: 'keys' });
    dir.fetches = 0;
    dir.connections = 0;
  }
  nonces = memoryBlobs().store();
});
afterEach(() => {
  dns.names.clear();
  dns.asked.length = 0;
});

/** A store whose every write of a nonce fails (503), and everything else works. */
const nonceWritesFail =
  (inner: typeof fetch): typeof fetch =>
  (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return (init?.method ?? 'GET').toUpperCase() === 'PUT' && decodeURIComponent(url).includes('/nonces/')
      ? Promise.resolve(new Response('unavailable', { status: 503 }))
      : inner(input, init);
  };

let clock = T;
/** A new instance's verifier: its own key directories, the site's store, loopback HTTP allowed unless said. */
const fresh = (options: { timeoutMs?: number; loopbackHttp?: boolean; store?: ProposalsStore } = {}): VerifyDeps => {
  clock = T;
  const loopbackHttp = options.loopbackHttp ?? true;
  return {
    directories: new KeyDirectories({
      now: () => clock,
      loopbackHttp,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    }),
    store: options.store ?? nonces,
    now: () => clock,
    loopbackHttp,
  };
};

const unsigned = (headers: Record<string, string> = {}, body = BODY): Unsigned => ({
  method: 'POST',
  url: URL_,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});
const asRequest = (headers: Record<string, string>, body = BODY, url = URL_) =>
  new Request(url, { method: 'POST', headers, body });
/** Verifies a request as a door hands it on: the request, and the body it read. */
const verify = (headers: Record<string, string>, deps: VerifyDeps, body = BODY, url = URL_) =>
  verifyAgentIdentity(asRequest(headers, body, url), new TextEncoder().encode(body), deps);

/** Operator A's agent, string form of Signature-Agent, through web-bot-auth. */
const signedA = (
  window: { created: Date; expires: Date; nonce?: string } = { created: at(0), expires: at(60) },
  key = keyA,
) => signWithWebBotAuth(key, unsigned({ 'signature-agent': `"${dirA.origin}"` }), window);

/** Operator B's agent, dictionary form, through http-message-signatures. */
const signedB = (
  options: { fields?: string[]; tag?: string; created?: Date; expires?: Date; nonce?: string } = {},
  request = unsigned({ 'signature-agent': `agent1="${dirB.origin}"` }),
) =>
  signWithHttpMessageSignatures(keyB, request, {
    fields: options.fields ?? ['@authority', 'signature-agent;key="agent1"'],
    params: ['created', 'expires', 'keyid', 'alg', 'tag', ...(options.nonce === undefined ? [] : ['nonce'])],
    values: {
      created: options.created ?? at(0),
      expires: options.expires ?? at(60),
      tag: options.tag ?? 'web-bot-auth',
      ...(options.nonce !== undefined && { nonce: options.nonce }),
    },
  });

describe('verified agent identity (Web Bot Auth)', () => {
  it('verifies the string form of Signature-Agent signed by web-bot-auth', async () => {
    const identity = await verify(await signedA(), fresh());
    expect(identity).toEqual({
      outcome: 'verified',
      operator: dirA.origin,
      key_id: keyA.keyId,
      covered: ['"@authority"', '"signature-agent"'],
      body_covered: false,
    });
    expect(agentIdentityText(identity)).toBe(`sent by ${new URL(dirA.origin).host} agent, verified; body not covered`);
  });

  it('verifies the dictionary form of Signature-Agent signed by http-message-signatures', async () => {
    const identity = await verify(await signedB(), fresh());
    expect(identity).toEqual({
      outcome: 'verified',
      operator: dirB.origin,
      key_id: keyB.keyId,
      covered: ['"@authority"', '"signature-agent";key="agent1"'],
      body_covered: false,
    });
  });

  it('records the body as covered when content-digest is signed and matches, and invalid when it does not', async () => {
    const request = withContentDigest(unsigned({ 'signature-agent': `agent1="${dirB.origin}"` }));
    const headers = await signedB(
      { fields: ['@authority', 'signature-agent;key="agent1"', 'content-digest'] },
      request,
    );
    const deps = fresh();
    const covered = await verify(headers, deps);
    expect(covered).toMatchObject({ outcome: 'verified', body_covered: true });
    expect(agentIdentityText(covered)).toMatch(/verified; body covered$/);
    const tampered = await verify(headers, deps, BODY.replace('migrate', 'exfiltrate'));
    expect(tampered).toMatchObject({ outcome: 'invalid', reason: 'content-digest does not match the body' });
    // A digest sent but not signed covers nothing.
    const unsignedDigest = await signedB({}, request);
    expect(await verify(unsignedDigest, deps)).toMatchObject({
      outcome: 'verified',
      body_covered: false,
    });
  });

  it('leaves the body readable by the handler after checking its digest', async () => {
    const request = withContentDigest(unsigned({ 'signature-agent': `agent1="${dirB.origin}"` }));
    const headers = await signedB(
      { fields: ['@authority', 'signature-agent;key="agent1"', 'content-digest'] },
      request,
    );
    const req = asRequest(headers);
    // The door read the body; the verifier reads only those bytes and leaves the request's own body alone.
    const identity = verifyAgentIdentity(req, new TextEncoder().encode(BODY), fresh());
    expect(await req.text()).toBe(BODY);
    expect(await identity).toMatchObject({ outcome: 'verified', body_covered: true });
  });

  it('records a signature without @authority as invalid, without fetching the directory', async () => {
    const headers = await signedB({ fields: ['@method', 'signature-agent;key="agent1"'] });
    const identity = await verify(headers, fresh());
    expect(identity).toMatchObject({ outcome: 'invalid', reason: 'the signature does not cover @authority' });
    expect(dirB.fetches).toBe(0);
  });

  it('records a signature with another tag as invalid', async () => {
    const identity = await verify(await signedB({ tag: 'not-web-bot-auth' }), fresh());
    expect(identity).toEqual({ outcome: 'invalid', reason: 'no signature is tagged web-bot-auth' });
  });

  it('records a Signature-Agent the signature does not cover as invalid', async () => {
    const identity = await verify(await signedB({ fields: ['@authority'] }), fresh());
    expect(identity).toMatchObject({ outcome: 'invalid', reason: 'the signature does not cover signature-agent' });
  });

  it('records an expired signature and one created in the future as invalid', async () => {
    const skew = AGENT_IDENTITY_LIMITS.clockSkewSeconds;
    const expired = await signedA({ created: at(-120 - skew), expires: at(-60 - skew) });
    expect(await verify(expired, fresh())).toMatchObject({
      outcome: 'invalid',
      operator: dirA.origin,
      reason: 'the signature has expired',
    });
    const future = await signedA({ created: at(skew + 60), expires: at(skew + 120) });
    expect(await verify(future, fresh())).toMatchObject({
      outcome: 'invalid',
      reason: 'the signature was created in the future',
    });
    const long = await signedB({ expires: at(AGENT_IDENTITY_LIMITS.maxValiditySeconds + 1) });
    expect(await verify(long, fresh())).toMatchObject({
      outcome: 'invalid',
      reason: `the signature is valid for more than ${AGENT_IDENTITY_LIMITS.maxValiditySeconds} s`,
    });
    expect(dirA.fetches + dirB.fetches).toBe(0);
  });

  it('records a key the operator does not publish as invalid', async () => {
    const identity = await verify(await signedA(undefined, stranger), fresh());
    expect(identity).toMatchObject({
      outcome: 'invalid',
      operator: dirA.origin,
      key_id: stranger.keyId,
      reason: "the keyid is not in the operator's key directory",
    });
  });

  it("records a signature made with another operator's key id as invalid", async () => {
    // Operator B's keyid named under operator A's Signature-Agent: A does not publish it.
    const request = unsigned({ 'signature-agent': `"${dirA.origin}"` });
    const headers = await signWithHttpMessageSignatures(keyB, request, {
      fields: ['@authority', 'signature-agent'],
      params: ['created', 'expires', 'keyid', 'tag'],
      values: { created: at(0), expires: at(60), tag: 'web-bot-auth' },
    });
    expect(await verify(headers, fresh())).toMatchObject({ outcome: 'invalid' });
  });

  it('records a request whose signed authority differs from the one received as invalid', async () => {
    const identity = await verify(await signedA(), fresh(), BODY, 'http://127.0.0.1:9999/api/proposal');
    expect(identity).toMatchObject({ outcome: 'invalid', reason: 'the signature does not match the request' });
  });

  it('records the same nonce sent twice as a replay, on any instance of the site', async () => {
    const headers = await signedA({ created: at(0), expires: at(60), nonce: Buffer.alloc(64, 7).toString('base64') });
    const deps = fresh();
    expect(await verify(headers, deps)).toMatchObject({ outcome: 'verified' });
    expect(await verify(headers, deps)).toMatchObject({
      outcome: 'invalid',
      reason: 'the nonce was used before (a replay)',
    });
    // Another instance has its own directories but the site's store: it has seen the nonce too.
    expect(await verify(headers, fresh())).toMatchObject({
      outcome: 'invalid',
      reason: 'the nonce was used before (a replay)',
    });
    // Remembered until the signature expires, under a name that holds no part of the request.
    const [remembered, ...more] = await nonces.listWhile('nonces/');
    expect(more).toEqual([]);
    expect(remembered).toMatch(
      new RegExp(
        `^nonces/${new Date(at(60 + AGENT_IDENTITY_LIMITS.clockSkewSeconds).getTime()).toISOString()}/[0-9a-f]{64}$`,
      ),
    );
    // Another site's store has not.
    expect(await verify(headers, fresh({ store: memoryBlobs().store() }))).toMatchObject({ outcome: 'verified' });
  });

  it('records a nonce the store could not check as unverified, never as verified or a refusal', async () => {
    const memory = memoryBlobs();
    const failing = nonceWritesFail(memory.fetch);
    const identity = await verify(await signedA(), fresh({ store: memory.store({ fetch: failing }) }));
    expect(identity).toMatchObject({
      outcome: 'unverified',
      operator: dirA.origin,
      key_id: keyA.keyId,
      reason: 'the nonce could not be checked',
    });
  });

  it('records a directory that does not answer in time as unverified, within the timeout', async () => {
    dirA.behave({ kind: 'hang' });
    const timeoutMs = 300;
    const started = performance.now();
    const identity = await verify(await signedA(), fresh({ timeoutMs }));
    const took = performance.now() - started;
    expect(identity).toMatchObject({
      outcome: 'unverified',
      operator: dirA.origin,
      key_id: keyA.keyId,
      reason: 'the key directory did not answer in time',
    });
    expect(took).toBeGreaterThanOrEqual(timeoutMs - 5);
    expect(took).toBeLessThan(timeoutMs + 250);
    expect(agentIdentityText(identity)).toBe(
      `signed as ${new URL(dirA.origin).host} agent, not verified: the key directory did not answer in time`,
    );
  });

  it('returns within the timeout even when a directory answers its headers and never ends its body', async () => {
    dirA.behave({ kind: 'trickle' });
    const started = performance.now();
    const identity = await verify(await signedA(), fresh({ timeoutMs: 200 }));
    expect(identity).toMatchObject({ outcome: 'unverified', reason: 'the key directory did not answer in time' });
    expect(performance.now() - started).toBeLessThan(450);
  });

  it('records a directory that is down or answers an error as unverified', async () => {
    dirA.behave({ kind: 'drop' });
    expect(await verify(await signedA(), fresh())).toMatchObject({
      outcome: 'unverified',
      reason: 'the key directory could not be reached',
    });
    dirA.behave({ kind: 'status', status: 503 });
    expect(await verify(await signedA(), fresh())).toMatchObject({
      outcome: 'unverified',
      reason: 'the key directory answered HTTP 503',
    });
  });

  it('records a malformed directory as unverified', async () => {
    dirA.behave({ kind: 'body', body: '<html>not a directory</html>' });
    expect(await verify(await signedA(), fresh())).toMatchObject({
      outcome: 'unverified',
      reason: 'the key directory is not JSON',
    });
    dirA.behave({ kind: 'body', body: '{"keys":"none"}' });
    expect(await verify(await signedA(), fresh())).toMatchObject({
      outcome: 'unverified',
      reason: 'the key directory has no keys list',
    });
  });

  it('keeps a directory as long as its max-age says, then fetches it again', async () => {
    dirA.behave({ kind: 'keys', cacheControl: 'public, max-age=60' });
    const deps = fresh();
    for (let i = 0; i < 3; i++) expect((await verify(await signedA(), deps)).outcome).toBe('verified');
    expect(dirA.fetches).toBe(1);
    clock = T + 61_000;
    const later = await signedA({ created: at(61), expires: at(120) });
    expect((await verify(later, deps)).outcome).toBe('verified');
    expect(dirA.fetches).toBe(2);
    dirA.behave({ kind: 'keys', cacheControl: 'no-store' });
    clock = T + 200_000;
    const uncached = await signedA({ created: at(200), expires: at(230) });
    await verify(uncached, deps);
    await verify(uncached, deps);
    expect(dirA.fetches).toBe(4);
  });

  it('reads Cache-Control max-age, caps it, and keeps nothing for no-store', () => {
    expect(cacheSeconds('max-age=120')).toBe(120);
    expect(cacheSeconds(null)).toBe(AGENT_IDENTITY_LIMITS.defaultCacheSeconds);
    expect(cacheSeconds('max-age=99999999')).toBe(AGENT_IDENTITY_LIMITS.maxCacheSeconds);
    expect(cacheSeconds('no-store')).toBe(0);
  });

  it('fetches a loopback operator over plain HTTP only when running locally', async () => {
    const identity = await verify(await signedA(), fresh({ loopbackHttp: false }));
    expect(identity).toMatchObject({ outcome: 'invalid', reason: 'Signature-Agent is not an https URL' });
    expect(dirA.fetches).toBe(0);
  });

  it('records an unsigned request as absent, and half a signature as invalid', async () => {
    const deps = fresh();
    expect(await verify({ 'content-type': 'application/json' }, deps)).toEqual({
      outcome: 'absent',
    });
    expect(agentIdentityText({ outcome: 'absent' })).toBe('not signed');
    expect(await verify({ signature: 'sig1=:AAAA:' }, deps)).toMatchObject({
      outcome: 'invalid',
    });
    expect(await verify({ signature: 'x', 'signature-input': '(((' }, deps)).toMatchObject({
      outcome: 'invalid',
      reason: 'Signature-Input is not a valid structured field',
    });
  });
});

describe('a key directory fetched only from the public internet', () => {
  /** Operator A's agent naming `operator` in Signature-Agent: A's key, whatever the directory there would say. */
  const signedFor = (operator: string) =>
    signWithWebBotAuth(keyA, unsigned({ 'signature-agent': `"${operator}"` }), {
      created: at(0),
      expires: at(60),
    });
  const port = () => new URL(dirA.origin).port;

  it.each([
    // localhost on a deploy: plain HTTP, a port, or HTTPS on 443 (it resolves to loopback).
    ['localhost over plain HTTP', () => `http://localhost:${port()}`, 'Signature-Agent is not an https URL'],
    ['localhost on another port', () => `https://localhost:${port()}`, 'Signature-Agent names a port other than 443'],
    ['localhost on 443', () => 'https://localhost', 'Signature-Agent names a host whose addresses are not all public'],
    // IP literals, loopback or not, with or without a port.
    ['an IPv4 literal', () => `https://127.0.0.1:${port()}`, 'Signature-Agent names an IP address, not a host name'],
    ['an IPv6 literal', () => `https://[::1]:${port()}`, 'Signature-Agent names an IP address, not a host name'],
    ['a private IPv4 literal', () => 'https://10.0.0.8', 'Signature-Agent names an IP address, not a host name'],
    // A public name on a port other than 443.
    [
      'a name on another port',
      () => 'https://keys.operator.example:8443',
      'Signature-Agent names a port other than 443',
    ],
  ])('on a deploy, refuses %s: recorded invalid, nothing fetched', async (_what, operator, reason) => {
    const identity = await verify(await signedFor(operator()), fresh({ loopbackHttp: false }));
    expect(identity).toMatchObject({ outcome: 'invalid', key_id: keyA.keyId, reason });
    expect(dirA.connections).toBe(0);
  });

  it.each([
    ['a private address', ['10.1.2.3']],
    ['a private address of 172.16/12', ['172.20.0.5']],
    ['a private address of 192.168/16', ['192.168.1.10']],
    ['a link-local address (the cloud metadata service)', ['169.254.169.254']],
    ['a shared address (carrier-grade NAT)', ['100.64.0.1']],
    ['a loopback address', ['127.0.0.2']],
    ['an IPv6 link-local address', ['fe80::1']],
    ['an IPv6 unique-local address', ['fd12:3456::1']],
    ['an IPv4-mapped private address', ['::ffff:10.0.0.1']],
    ['one private address among public-looking ones', ['8.8.8.8', '10.0.0.1']],
  ])('on a deploy, refuses a name resolving to %s: recorded invalid, nothing connected', async (_what, addresses) => {
    dns.names.set('keys.operator.test', addresses);
    const started = performance.now();
    const identity = await verify(await signedFor('https://keys.operator.test'), fresh({ loopbackHttp: false }));
    expect(identity).toMatchObject({
      outcome: 'invalid',
      operator: 'https://keys.operator.test',
      reason: 'Signature-Agent names a host whose addresses are not all public',
    });
    // The guard answered in the connection's own lookup: no connection was tried, so no timeout waited.
    expect(dns.asked).toEqual(['keys.operator.test']);
    expect(performance.now() - started).toBeLessThan(AGENT_IDENTITY_LIMITS.directoryTimeoutMs);
  });

  it('refuses, also where loopback is allowed, a name one of whose addresses is private: the loopback server is never reached', async () => {
    // Locally `localhost` may be fetched over plain HTTP: only while every address it resolves to is loopback.
    dns.names.set('localhost', ['127.0.0.1', '10.0.0.7']);
    const identity = await verify(await signedFor(`http://localhost:${port()}`), fresh());
    expect(identity).toMatchObject({
      outcome: 'invalid',
      reason: 'Signature-Agent names a host whose addresses are not all public',
    });
    expect(dirA.connections).toBe(0);
    // Resolving to loopback only, the same operator is fetched and verified.
    dns.names.set('localhost', ['127.0.0.1']);
    expect(await verify(await signedFor(`http://localhost:${port()}`), fresh())).toMatchObject({
      outcome: 'verified',
    });
    expect(dirA.fetches).toBe(1);
  });

  it('knows which addresses are public', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.0.1',
      '100.127.255.254',
      '0.0.0.0',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fdff::1',
      '::ffff:127.0.0.1',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });
});

describe('through the doors: verified only when a stored submit awaits it', () => {
  const SITE = new URL(KNOWLEDGE.urls.home).origin;
  const env = { [LOOPBACK_DIRECTORY_ENV]: '1' };
  const { form_started_at: _started, ...fields } = submitRequest();
  const GUIDE = {
    action: 'guide',
    question: 'We migrate.',
    industry: 'retail',
    company_size: '11-50',
    primary_need: 'cloud-engineering',
  };

  /** A POST operator A's agent signed now, as it would send it. */
  async function signedPost(path: string, body: object, headers: Record<string, string> = {}) {
    const text = JSON.stringify(body);
    const now = new Date();
    const signed = await signWithWebBotAuth(
      keyA,
      {
        method: 'POST',
        url: `${SITE}${path}`,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'signature-agent': `"${dirA.origin}"`,
          ...headers,
        },
        body: text,
      },
      { created: now, expires: new Date(now.getTime() + 60_000) },
    );
    return { headers: signed, body: text, url: `${SITE}${path}` };
  }
  const send = (
    post: { headers: Record<string, string>; body: string; url: string },
    extra: Record<string, string> = {},
  ) => new Request(post.url, { method: 'POST', headers: { ...post.headers, ...extra }, body: post.body });

  /** An instance of the function, as its entry builds one, over `store`. */
  function instance(store: ProposalsStore) {
    const intake = testIntake(env, { store });
    return {
      http: createHttpDoor(intake, KNOWLEDGE),
      mcp: createMcpDoor(intake, loadMcpSdk),
    };
  }
  const records = async (store: ProposalsStore) =>
    Promise.all(
      (await store.listWhile('requests/')).map(async (key) => (await store.read(key))!.value as ProposalRecord),
    );

  it('fetches no key directory for a signed guide, summarize or tools/list, nor for a submit it refuses', async () => {
    const { http, mcp } = instance(memoryBlobs().store());
    const guide = await http(invocationOf(send(await signedPost('/api/proposal', GUIDE))));
    expect(guide.status).toBe(200);
    const summarize = await http(
      invocationOf(send(await signedPost('/api/proposal', { action: 'summarize', name: 'Ann' }))),
    );
    expect(summarize.status).toBe(200);
    const list = await mcp(
      invocationOf(send(await signedPost('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }))),
    );
    expect(list.status).toBe(200);
    // Refused before anything is stored: no schema match, or a secret in it.
    const refused = await http(
      invocationOf(
        send(await signedPost('/api/proposal', { ...fields, company: '' }), { 'idempotency-key': randomUUID() }),
      ),
    );
    expect(refused.status).toBe(422);
    expect(dirA.fetches + dirA.connections).toBe(0);
  });

  it('verifies a signed submit once, when it is stored, and not again when its key is replayed', async () => {
    const store = memoryBlobs().store();
    const { http } = instance(store);
    const key = randomUUID();
    const post = await signedPost('/api/proposal', fields);
    const stored = await http(invocationOf(send(post, { 'idempotency-key': key })));
    expect(stored.status).toBe(201);
    expect(dirA.fetches).toBe(1);
    const [record] = await records(store);
    expect(record!.agent_identity).toMatchObject({ outcome: 'verified', operator: dirA.origin, key_id: keyA.keyId });
    // The same key again: the stored reply, nothing verified (or fetched) anew.
    const replayed = await http(invocationOf(send(post, { 'idempotency-key': key })));
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(dirA.fetches).toBe(1);
    expect((await records(store))[0]!.agent_identity).toEqual(record!.agent_identity);
  });

  it('records the same signed request stored through two instances as verified once, then a replay', async () => {
    // Two instances of the site (two entries built, each with its own key directories), one store.
    const store = memoryBlobs().store();
    const [first, second] = [instance(store), instance(store)];
    const post = await signedPost('/api/proposal', fields);
    // The signature does not cover the key: a copy sent with another key is a second request.
    expect((await first.http(invocationOf(send(post, { 'idempotency-key': randomUUID() })))).status).toBe(201);
    expect((await second.http(invocationOf(send(post, { 'idempotency-key': randomUUID() })))).status).toBe(201);
    const outcomes = (await records(store))
      .sort((a, b) => a.received_at.localeCompare(b.received_at) || a.request_id.localeCompare(b.request_id))
      .map((r) => [r.agent_identity?.outcome, r.agent_identity?.reason]);
    expect(outcomes).toEqual([
      ['verified', undefined],
      ['invalid', 'the nonce was used before (a replay)'],
    ]);
  });

  it('stores the request, recorded unverified, when the store cannot check the nonce', async () => {
    const memory = memoryBlobs();
    const failing = nonceWritesFail(memory.fetch);
    const store = memory.store({ fetch: failing });
    const { http } = instance(store);
    const post = await signedPost('/api/proposal', fields);
    const reply = await http(invocationOf(send(post, { 'idempotency-key': randomUUID() })));
    expect(reply.status).toBe(201);
    const [record] = await records(store);
    expect(record!.agent_identity).toMatchObject({
      outcome: 'unverified',
      operator: dirA.origin,
      reason: 'the nonce could not be checked',
    });
  });
});
