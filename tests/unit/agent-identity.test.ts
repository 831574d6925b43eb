/**
 * Web Bot Auth verification in-process: requests signed by two independent libraries
 * (tests/helpers/agent-signers.ts), each operator's key served by its own key-directory stand-in on
 * loopback, the clock injected. Every case is recorded, none refused: these are the outcomes stored.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agentIdentityDeps, verifyAgentIdentity } from '../../src/proposal/agent-identity/verify.ts';
import { agentIdentityText } from '../../src/proposal/agent-identity/text.ts';
import { invocationAgentIdentity, withAgentIdentity } from '../../src/proposal/agent-identity/invocation.ts';
import { AGENT_IDENTITY_LIMITS } from '../../src/proposal/agent-identity/profile.ts';
import { cacheSeconds } from '../../src/proposal/agent-identity/directory.ts';
import { startKeyDirectory, type KeyDirectoryServer } from '../helpers/key-directory.ts';
import {
  newAgentKey,
  signWithHttpMessageSignatures,
  signWithWebBotAuth,
  withContentDigest,
  type AgentKey,
  type Unsigned,
} from '../helpers/agent-signers.ts';

const T = Date.parse('2026-11-28T06:00:00Z');
const at = (seconds: number) => new Date(T + seconds * 1000);
const URL_ = 'http://localhost:8888/api/proposal';
const BODY = JSON.stringify({ action: 'guide', goal: 'migrate' });

let keyA: AgentKey; // signs with web-bot-auth, published by operator A
let keyB: AgentKey; // signs with http-message-signatures, published by operator B
let stranger: AgentKey; // published nowhere
let dirA: KeyDirectoryServer;
let dirB: KeyDirectoryServer;

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
  }
});

let clock = T;
const fresh = (options: { timeoutMs?: number; fetch?: typeof fetch; allowLoopbackHttp?: boolean } = {}) => {
  clock = T;
  return agentIdentityDeps({ allowLoopbackHttp: true, now: () => clock, ...options });
};

const unsigned = (headers: Record<string, string> = {}, body = BODY): Unsigned => ({
  method: 'POST',
  url: URL_,
  headers: { 'content-type': 'application/json', ...headers },
  body,
});
const asRequest = (headers: Record<string, string>, body = BODY, url = URL_) =>
  new Request(url, { method: 'POST', headers, body });

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
    const identity = await verifyAgentIdentity(asRequest(await signedA()), fresh());
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
    const identity = await verifyAgentIdentity(asRequest(await signedB()), fresh());
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
    const covered = await verifyAgentIdentity(asRequest(headers), deps);
    expect(covered).toMatchObject({ outcome: 'verified', body_covered: true });
    expect(agentIdentityText(covered)).toMatch(/verified; body covered$/);
    const tampered = await verifyAgentIdentity(asRequest(headers, BODY.replace('migrate', 'exfiltrate')), deps);
    expect(tampered).toMatchObject({ outcome: 'invalid', reason: 'content-digest does not match the body' });
    // A digest sent but not signed covers nothing.
    const unsignedDigest = await signedB({}, request);
    expect(await verifyAgentIdentity(asRequest(unsignedDigest), deps)).toMatchObject({
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
    const identity = verifyAgentIdentity(req, fresh());
    expect(await req.text()).toBe(BODY);
    expect(await identity).toMatchObject({ outcome: 'verified', body_covered: true });
  });

  it('records a signature without @authority as invalid, without fetching the directory', async () => {
    const headers = await signedB({ fields: ['@method', 'signature-agent;key="agent1"'] });
    const identity = await verifyAgentIdentity(asRequest(headers), fresh());
    expect(identity).toMatchObject({ outcome: 'invalid', reason: 'the signature does not cover @authority' });
    expect(dirB.fetches).toBe(0);
  });

  it('records a signature with another tag as invalid', async () => {
    const identity = await verifyAgentIdentity(asRequest(await signedB({ tag: 'not-web-bot-auth' })), fresh());
    expect(identity).toEqual({ outcome: 'invalid', reason: 'no signature is tagged web-bot-auth' });
  });

  it('records a Signature-Agent the signature does not cover as invalid', async () => {
    const identity = await verifyAgentIdentity(asRequest(await signedB({ fields: ['@authority'] })), fresh());
    expect(identity).toMatchObject({ outcome: 'invalid', reason: 'the signature does not cover signature-agent' });
  });

  it('records an expired signature and one created in the future as invalid', async () => {
    const skew = AGENT_IDENTITY_LIMITS.clockSkewSeconds;
    const expired = await signedA({ created: at(-120 - skew), expires: at(-60 - skew) });
    expect(await verifyAgentIdentity(asRequest(expired), fresh())).toMatchObject({
      outcome: 'invalid',
      operator: dirA.origin,
      reason: 'the signature has expired',
    });
    const future = await signedA({ created: at(skew + 60), expires: at(skew + 120) });
    expect(await verifyAgentIdentity(asRequest(future), fresh())).toMatchObject({
      outcome: 'invalid',
      reason: 'the signature was created in the future',
    });
    const long = await signedB({ expires: at(AGENT_IDENTITY_LIMITS.maxValiditySeconds + 1) });
    expect(await verifyAgentIdentity(asRequest(long), fresh())).toMatchObject({
      outcome: 'invalid',
      reason: `the signature is valid for more than ${AGENT_IDENTITY_LIMITS.maxValiditySeconds} s`,
    });
    expect(dirA.fetches + dirB.fetches).toBe(0);
  });

  it('records a key the operator does not publish as invalid', async () => {
    const identity = await verifyAgentIdentity(asRequest(await signedA(undefined, stranger)), fresh());
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
    expect(await verifyAgentIdentity(asRequest(headers), fresh())).toMatchObject({ outcome: 'invalid' });
  });

  it('records a request whose signed authority differs from the one received as invalid', async () => {
    const identity = await verifyAgentIdentity(
      asRequest(await signedA(), BODY, 'http://127.0.0.1:9999/api/proposal'),
      fresh(),
    );
    expect(identity).toMatchObject({ outcome: 'invalid', reason: 'the signature does not match the request' });
  });

  it('records the same nonce sent twice as a replay', async () => {
    const headers = await signedA({ created: at(0), expires: at(60), nonce: Buffer.alloc(64, 7).toString('base64') });
    const deps = fresh();
    expect(await verifyAgentIdentity(asRequest(headers), deps)).toMatchObject({ outcome: 'verified' });
    expect(await verifyAgentIdentity(asRequest(headers), deps)).toMatchObject({
      outcome: 'invalid',
      reason: 'the nonce was used before (a replay)',
    });
    // Another instance has not seen it: the log is per instance, in memory.
    expect(await verifyAgentIdentity(asRequest(headers), fresh())).toMatchObject({ outcome: 'verified' });
  });

  it('records a directory that does not answer in time as unverified, within the timeout', async () => {
    dirA.behave({ kind: 'hang' });
    const timeoutMs = 300;
    const started = performance.now();
    const identity = await verifyAgentIdentity(asRequest(await signedA()), fresh({ timeoutMs }));
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

  it('returns within the timeout even when a fetch ignores its abort signal', async () => {
    const never: typeof fetch = () => new Promise<Response>(() => undefined);
    const started = performance.now();
    const identity = await verifyAgentIdentity(asRequest(await signedA()), fresh({ timeoutMs: 200, fetch: never }));
    expect(identity.outcome).toBe('unverified');
    expect(performance.now() - started).toBeLessThan(450);
  });

  it('records a directory that is down or answers an error as unverified', async () => {
    dirA.behave({ kind: 'drop' });
    expect(await verifyAgentIdentity(asRequest(await signedA()), fresh())).toMatchObject({
      outcome: 'unverified',
      reason: 'the key directory could not be reached',
    });
    dirA.behave({ kind: 'status', status: 503 });
    expect(await verifyAgentIdentity(asRequest(await signedA()), fresh())).toMatchObject({
      outcome: 'unverified',
      reason: 'the key directory answered HTTP 503',
    });
  });

  it('records a malformed directory as unverified', async () => {
    dirA.behave({ kind: 'body', body: '<html>not a directory</html>' });
    expect(await verifyAgentIdentity(asRequest(await signedA()), fresh())).toMatchObject({
      outcome: 'unverified',
      reason: 'the key directory is not JSON',
    });
    dirA.behave({ kind: 'body', body: '{"keys":"none"}' });
    expect(await verifyAgentIdentity(asRequest(await signedA()), fresh())).toMatchObject({
      outcome: 'unverified',
      reason: 'the key directory has no keys list',
    });
  });

  it('keeps a directory as long as its max-age says, then fetches it again', async () => {
    dirA.behave({ kind: 'keys', cacheControl: 'public, max-age=60' });
    const deps = fresh();
    for (let i = 0; i < 3; i++)
      expect((await verifyAgentIdentity(asRequest(await signedA()), deps)).outcome).toBe('verified');
    expect(dirA.fetches).toBe(1);
    clock = T + 61_000;
    const later = await signedA({ created: at(61), expires: at(120) });
    expect((await verifyAgentIdentity(asRequest(later), deps)).outcome).toBe('verified');
    expect(dirA.fetches).toBe(2);
    dirA.behave({ kind: 'keys', cacheControl: 'no-store' });
    clock = T + 200_000;
    const uncached = await signedA({ created: at(200), expires: at(230) });
    await verifyAgentIdentity(asRequest(uncached), deps);
    await verifyAgentIdentity(asRequest(uncached), deps);
    expect(dirA.fetches).toBe(4);
  });

  it('reads Cache-Control max-age, caps it, and keeps nothing for no-store', () => {
    expect(cacheSeconds('max-age=120')).toBe(120);
    expect(cacheSeconds(null)).toBe(AGENT_IDENTITY_LIMITS.defaultCacheSeconds);
    expect(cacheSeconds('max-age=99999999')).toBe(AGENT_IDENTITY_LIMITS.maxCacheSeconds);
    expect(cacheSeconds('no-store')).toBe(0);
  });

  it('fetches a loopback operator over plain HTTP only when running locally', async () => {
    const identity = await verifyAgentIdentity(asRequest(await signedA()), fresh({ allowLoopbackHttp: false }));
    expect(identity).toMatchObject({ outcome: 'invalid', reason: 'Signature-Agent is not an https URL' });
    expect(dirA.fetches).toBe(0);
  });

  it('records an unsigned request as absent, and half a signature as invalid', async () => {
    const deps = fresh();
    expect(await verifyAgentIdentity(asRequest({ 'content-type': 'application/json' }), deps)).toEqual({
      outcome: 'absent',
    });
    expect(agentIdentityText({ outcome: 'absent' })).toBe('not signed');
    expect(await verifyAgentIdentity(asRequest({ signature: 'sig1=:AAAA:' }), deps)).toMatchObject({
      outcome: 'invalid',
    });
    expect(await verifyAgentIdentity(asRequest({ signature: 'x', 'signature-input': '(((' }), deps)).toMatchObject({
      outcome: 'invalid',
      reason: 'Signature-Input is not a valid structured field',
    });
  });

  it('starts one verification per POST for the invocation, found wherever the invocation goes', async () => {
    const deps = fresh();
    const headers = await signedA();
    const found = await withAgentIdentity(asRequest(headers), deps, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return invocationAgentIdentity();
    });
    expect(found?.outcome).toBe('verified');
    expect(invocationAgentIdentity()).toBeUndefined();
    const get = new Request(URL_, { method: 'GET', headers });
    expect(withAgentIdentity(get, deps, () => invocationAgentIdentity())).toBeUndefined();
  });
});
