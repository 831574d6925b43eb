/** CRM adapters against a loopback HTTP server: what goes over the wire and how it is read back. */
import { consentDigest } from '../../src/contract/consent.ts';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { isAllowedEndpoint, readConfig, type EnvReader } from '../../src/proposal/config.ts';
import {
  crmAdapter,
  crmCall,
  crmPayload,
  hubSpotSubmission,
  type CrmAdapter,
  type CrmOutcome,
  type CrmPayload,
} from '../../src/proposal/submit/crm.ts';
import { parseRetryAfter, postForOutcome } from '../../src/proposal/notify/post.ts';
import { buildRecord, recordKey, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { captureLogLines, logText, type LogLine } from '../helpers/log-lines.ts';
import {
  CONSENT,
  PARTNER,
  envOf,
  newWebhookSecret,
  submit,
  submitRequest,
  testCtx,
} from '../helpers/submit-fixtures.ts';

type HubSpotSubmission = ReturnType<typeof hubSpotSubmission>;
/** The adapter the configuration of `env` builds, as the instance builds it. */
const crmAdapterFromEnv = (env: EnvReader, partner = PARTNER) => crmAdapter(readConfig(env).config.crm, partner);
/** What the configuration of `env` says is wrong with its CRM settings, if anything. */
const crmMisconfigured = (env: EnvReader) => {
  const { crm } = readConfig(env).config;
  return 'misconfigured' in crm ? crm.misconfigured : undefined;
};
/** One delivery of `record` through `adapter`, bounded as the CRM step bounds it. */
const deliverWithin = (adapter: CrmAdapter, record: ProposalRecord, timeoutMs: number): Promise<CrmOutcome> =>
  crmCall(timeoutMs, (signal) => adapter.deliver(crmPayload(record), signal));

let blobs: TestBlobs;
let crm: TestCrmServer;
let logs: LogLine[];

beforeAll(async () => {
  [blobs, crm] = await Promise.all([startBlobs(), startCrmServer()]);
});
afterAll(async () => {
  await crm.stop();
  await blobs.stop();
});
beforeEach(() => {
  crm.requests.length = 0;
  crm.behave({ kind: 'status', status: 200, body: '{}' });
  logs = captureLogLines();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const PORTAL_ID = '1234567';
const FORM_GUID = '0f3c2d1e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const hubspotEnv = () => ({
  CRM_PROVIDER: 'hubspot',
  HUBSPOT_PORTAL_ID: PORTAL_ID,
  HUBSPOT_FORM_GUID: FORM_GUID,
  HUBSPOT_ACCESS_TOKEN: 'pat-test-token',
  HUBSPOT_API_BASE: crm.url,
});

describe('webhook adapter', () => {
  it('signs the record per Standard Webhooks, with webhook-id = the request id (never the sender key)', async () => {
    const secret = newWebhookSecret();
    const env = { CRM_PROVIDER: 'webhook', CRM_WEBHOOK_URL: `${crm.url}/hooks/crm`, CRM_WEBHOOK_SECRET: secret };
    const ctx = testCtx(blobs.freshStore(), { env });
    const key = `key-${randomUUID()}`;
    const reply = await submit(ctx, submitRequest(), key);
    expect(reply.status).toBe(201);

    const [request] = crm.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/hooks/crm');
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    expect(request?.headers['webhook-id']).toBe((reply.body as { request_id: string }).request_id);
    expect(request?.headers['webhook-id']).not.toBe(key);
    const headers = {
      'webhook-id': String(request?.headers['webhook-id']),
      'webhook-timestamp': String(request?.headers['webhook-timestamp']),
      'webhook-signature': String(request?.headers['webhook-signature']),
    };
    const payload = new Webhook(secret).verify(request?.body ?? '', headers) as CrmPayload;
    expect(payload.request_id).toBe((reply.body as { request_id: string }).request_id);
    expect(payload.consent).toMatchObject({ given: true, text: CONSENT.text, version: CONSENT.version });
    expect(() => new Webhook(newWebhookSecret()).verify(request?.body ?? '', headers)).toThrow();
  });

  it('sends the CRM the request, its id, source and spam signals: exactly these keys, no network hash or bookkeeping', async () => {
    const env = { CRM_PROVIDER: 'webhook', CRM_WEBHOOK_URL: `${crm.url}/crm`, CRM_WEBHOOK_SECRET: newWebhookSecret() };
    const ctx = testCtx(blobs.freshStore(), { env });
    const source = {
      channel: 'mcp',
      claimed_channel: 'webmcp',
      client: 'agent/1.0',
      network: '0123456789abcdef',
    } as const;
    const reply = await submit(ctx, submitRequest({ consent_version: 'old' }), randomUUID(), { source });
    expect(reply.status).toBe(201);

    const payload = JSON.parse(crm.requests[0]?.body ?? '') as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual([
      'consent',
      'contact',
      'guidance',
      'intake',
      'received_at',
      'request_id',
      'signals',
      'source',
    ]);
    expect(payload['source']).toEqual({ channel: 'mcp', claimed_channel: 'webmcp', client: 'agent/1.0' });
    expect(payload['consent']).toEqual({
      given: true,
      text: CONSENT.text,
      version: CONSENT.version,
      at: (reply.body as { received_at: string }).received_at,
      digest: consentDigest(CONSENT.text),
      method: 'agent_asserted',
      vouched_by: 'agent',
      channel: 'mcp',
      sender_version: 'old',
    });
    expect(payload['signals']).toMatchObject({ form_checks: 'not_checked', links: 0, address_requests_24h: 1 });
    expect(JSON.stringify(payload)).not.toContain('0123456789abcdef');
  });

  it.each([
    [{ CRM_WEBHOOK_SECRET: 'whsec_c2VjcmV0' }, 'CRM_WEBHOOK_URL'],
    [{ CRM_WEBHOOK_URL: 'http://crm.example/hook', CRM_WEBHOOK_SECRET: 'whsec_c2VjcmV0' }, 'CRM_WEBHOOK_URL'],
    [{ CRM_WEBHOOK_URL: 'https://crm.example/hook' }, 'CRM_WEBHOOK_SECRET'],
    [{ CRM_WEBHOOK_URL: 'https://crm.example/hook', CRM_WEBHOOK_SECRET: 'plain-secret' }, 'CRM_WEBHOOK_SECRET'],
    [{ CRM_WEBHOOK_URL: 'https://crm.example/hook', CRM_WEBHOOK_SECRET: 'whsec_!!!' }, 'CRM_WEBHOOK_SECRET'],
  ])('is misconfigured by %o and names %s', async (vars, variable) => {
    const adapter = crmAdapterFromEnv(envOf({ CRM_PROVIDER: 'webhook', ...vars }), PARTNER);
    expect(adapter.name).toBe('webhook');
    expect(await deliverWithin(adapter, sampleRecord(adapter.name), 1_000)).toEqual({
      ok: false,
      kind: 'misconfigured',
    });
    expect(logText(logs)).toContain(variable);
  });
});

describe('the CRM payload', () => {
  /** A record with every optional field, plus fields a later version might add at every level. */
  function recordWithInternals(): ProposalRecord {
    const record = buildRecord(submitRequest({ consent_version: 'old' }), {
      requestId: randomUUID(),
      receivedAt: '2026-11-20T10:00:00.000Z',
      crm: 'webhook',
      consent: CONSENT,
      entryKey: 'keys/abc',
      notification: { email: 'owed', chat: 'owed' },
      signals: { form_checks: 'passed', fill_seconds: 95, links: 1, address_requests_24h: 2 },
      source: { channel: 'workspace', claimed_channel: 'workspace', client: 'Mozilla/5.0', network: 'net-hash' },
    });
    return Object.assign(record, {
      // The engine's bookkeeping: the claim, the nonce of its last write, the steps' attempts, the due entry.
      claim: { until: '2026-11-20T10:01:00.000Z' },
      written: 'write-nonce',
      work: { crm: { attempts: 2, since: '2026-11-20T10:00:00.000Z', next_at: '2026-11-20T10:02:00.000Z' } },
      due_at: '2026-11-20T10:02:00.000Z',
      internal_note: 'bookkeeping',
      contact: { ...record.contact, mailbox_key: 'counted-form' },
      intake: { ...record.intake, internal_score: 'x' },
      guidance: { ...record.guidance, internal_score: 'y' },
      consent: { ...record.consent, ip_hash: 'z' },
      source: { ...record.source!, network_v2: 'net-hash-2' },
      signals: { ...record.signals!, internal_weight: 3 },
    });
  }

  it('names exactly its top-level keys', () => {
    expect(Object.keys(crmPayload(recordWithInternals())).sort()).toEqual([
      'consent',
      'contact',
      'guidance',
      'intake',
      'received_at',
      'request_id',
      'signals',
      'source',
    ]);
  });

  it('carries no field the record holds beyond those it names, at any depth', () => {
    const record = recordWithInternals();
    const payload = crmPayload(record);
    const text = JSON.stringify(payload);
    for (const internal of ['write-nonce', 'bookkeeping', 'counted-form', 'internal_score', 'ip_hash', 'net-hash']) {
      expect(text).not.toContain(internal);
    }
    expect(text).not.toContain('internal_weight');
    expect(text).not.toMatch(/"(claim|work|due_at|idempotency_entry)"/);
    expect(payload.contact).toEqual({
      name: 'Ann Example',
      email: 'ann@example.com',
      company: 'Example GmbH',
      role: 'CTO',
    });
    expect(payload.source).toEqual({ channel: 'workspace', claimed_channel: 'workspace', client: 'Mozilla/5.0' });
    expect(payload.signals).toEqual({ form_checks: 'passed', fill_seconds: 95, links: 1, address_requests_24h: 2 });
    expect(payload.consent).toMatchObject({ given: true, version: CONSENT.version, sender_version: 'old' });
    expect(payload.intake).toEqual(
      Object.fromEntries(Object.entries(record.intake).filter(([field]) => field !== 'internal_score')),
    );
  });

  it('leaves out what a request stored before sources and signals does not have', () => {
    const { source: _source, signals: _signals, ...old } = recordWithInternals();
    expect(Object.keys(crmPayload(old)).sort()).toEqual([
      'consent',
      'contact',
      'guidance',
      'intake',
      'received_at',
      'request_id',
    ]);
  });
});

describe('hubspot adapter', () => {
  it('posts a Forms API secure submission with legal consent, to the portal and form', async () => {
    const ctx = testCtx(blobs.freshStore(), { env: hubspotEnv() });
    const reply = await submit(ctx, submitRequest(), randomUUID());
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ crm: 'hubspot' });

    const [request] = crm.requests;
    expect(request?.path).toBe(`/submissions/v3/integration/secure/submit/${PORTAL_ID}/${FORM_GUID}`);
    expect(request?.headers.authorization).toBe('Bearer pat-test-token');
    const body = JSON.parse(request?.body ?? '') as HubSpotSubmission;
    const fields = Object.fromEntries(body.fields.map((field) => [field.name, field.value]));
    expect(body.fields.every((field) => field.objectTypeId === '0-1')).toBe(true);
    expect(fields).toMatchObject({
      email: 'ann@example.com',
      firstname: 'Ann',
      lastname: 'Example',
      company: 'Example GmbH',
      jobtitle: 'CTO',
    });
    expect(fields['message']).toContain('Launch the product in the EU by spring.');
    expect(fields['message']).toContain((reply.body as { request_id: string }).request_id);
    expect(body.submittedAt).toBe(String(Date.parse((reply.body as { received_at: string }).received_at)));
    expect(body.context).toEqual({ pageUri: PARTNER.proposalUrl, pageName: 'Kestrel Cloud proposal request' });
    expect(body.legalConsentOptions).toEqual({
      consent: { consentToProcess: true, text: CONSENT.text, communications: [] },
    });
  });

  it('keeps the request pending on a HubSpot 4xx (kind rejected)', async () => {
    crm.behave({ kind: 'status', status: 400, body: '{"status":"error"}' });
    const ctx = testCtx(blobs.freshStore(), { env: hubspotEnv() });
    const reply = await submit(ctx, submitRequest(), randomUUID());
    expect(reply.status).toBe(202);
  });

  it('names every missing variable at once', () => {
    expect(crmMisconfigured(envOf({ CRM_PROVIDER: 'hubspot', HUBSPOT_FORM_GUID: FORM_GUID }))).toEqual({
      variables: ['HUBSPOT_PORTAL_ID', 'HUBSPOT_ACCESS_TOKEN'],
      reason: 'missing',
    });
    expect(crmMisconfigured(envOf(hubspotEnv()))).toBeUndefined();
  });

  it.each(['HUBSPOT_PORTAL_ID', 'HUBSPOT_FORM_GUID', 'HUBSPOT_ACCESS_TOKEN'])(
    'is misconfigured without %s',
    async (variable) => {
      const adapter = crmAdapterFromEnv(envOf({ ...hubspotEnv(), [variable]: '' }), PARTNER);
      expect(await deliverWithin(adapter, sampleRecord(adapter.name), 1_000)).toEqual({
        ok: false,
        kind: 'misconfigured',
      });
      expect(logText(logs)).toContain(variable);
    },
  );

  it('defaults to api.hsforms.com and refuses a plain-http base off loopback', async () => {
    const adapter = crmAdapterFromEnv(envOf({ ...hubspotEnv(), HUBSPOT_API_BASE: 'http://api.hsforms.com' }), PARTNER);
    expect(await deliverWithin(adapter, sampleRecord(adapter.name), 1_000)).toMatchObject({ kind: 'misconfigured' });
    expect(logText(logs)).toContain('HUBSPOT_API_BASE');
  });
});

describe('delivery plumbing', () => {
  it('defaults to the inbox, which accepts at once', async () => {
    const adapter = crmAdapterFromEnv(envOf({}), PARTNER);
    expect(adapter.name).toBe('inbox');
    expect(await deliverWithin(adapter, sampleRecord(adapter.name), 1_000)).toEqual({ ok: true });
  });

  it('times out an adapter that ignores its abort signal', async () => {
    const stuck: CrmAdapter = { name: 'webhook', deliver: () => new Promise(() => undefined) };
    // Without its own deadline this would never settle (the test's timeout would fail it).
    expect(await deliverWithin(stuck, sampleRecord('webhook'), 50)).toEqual({ ok: false, kind: 'timeout' });
  });

  it('lets a throwing adapter (a bug) surface instead of calling it a failure to retry', async () => {
    const broken: CrmAdapter = { name: 'inbox', deliver: () => Promise.reject(new RangeError('boom')) };
    await expect(deliverWithin(broken, sampleRecord(), 1_000)).rejects.toThrow(RangeError);
  });

  it('logs the frames of an adapter that throws after its deadline, when nobody awaits it', async () => {
    const late: CrmAdapter = {
      name: 'inbox',
      deliver: () => new Promise((_, reject) => setTimeout(() => reject(new RangeError('ann@example.com')), 60)),
    };
    expect(await deliverWithin(late, sampleRecord(), 20)).toEqual({ ok: false, kind: 'timeout' });
    await vi.waitFor(() => expect(logs.map((line) => line.entry['event'])).toContain('unexpected_error'));
    expect(logs[0]).toMatchObject({ level: 'error', entry: { error: { name: 'RangeError' } } });
    expect(logText(logs)).not.toContain('ann@example.com');
  });

  it('never sends a request to a CRM other than the one it was accepted for, and logs both', async () => {
    // Accepted for the webhook CRM, which is down: the request stays pending, owing its delivery.
    const store = blobs.freshStore();
    crm.behave({ kind: 'status', status: 503, body: '' });
    const env = { CRM_PROVIDER: 'webhook', CRM_WEBHOOK_URL: `${crm.url}/crm`, CRM_WEBHOOK_SECRET: newWebhookSecret() };
    const reply = await submit(testCtx(store, { env }), submitRequest(), randomUUID());
    expect(reply.status).toBe(202);
    const id = (reply.body as { request_id: string }).request_id;
    // The site now configures HubSpot: the scheduled run, once the retry is due, finds the delivery and leaves it.
    const other: CrmAdapter = { name: 'hubspot', deliver: () => Promise.reject(new Error('must not be called')) };
    logs.length = 0;
    const later = () => new Date(Date.now() + 10 * 60_000);
    await runScheduled(testCtx(store, { env, crm: other, now: later }));
    expect(
      logs.filter((line) => line.entry['event'] === 'crm_not_accepted_here').map((l) => [l.level, l.entry]),
    ).toEqual([
      [
        'error',
        expect.objectContaining({
          event: 'crm_not_accepted_here',
          request_id: id,
          accepted_for: 'webhook',
          configured: 'hubspot',
        }),
      ],
    ]);
    expect(((await store.read(recordKey(id)))!.value as ProposalRecord).delivery.state).toBe('pending');
  });

  it('maps expected HTTP failures to outcomes and lets a bad request of ours throw', async () => {
    const post = (url: string, headers: Record<string, string> = {}, signal = AbortSignal.timeout(2_000)) =>
      postForOutcome(url, { headers, body: '{}', signal });
    crm.behave({ kind: 'status', status: 503, body: '' });
    expect(await post(`${crm.url}/x`)).toEqual({ ok: false, kind: 'server-error' });
    crm.behave({ kind: 'status', status: 404, body: '' });
    expect(await post(`${crm.url}/x`)).toEqual({ ok: false, kind: 'rejected' });
    const closed = await startCrmServer();
    await closed.stop();
    expect(await post(`${closed.url}/x`)).toEqual({ ok: false, kind: 'unreachable' });
    // A header value no HTTP message can carry is our bug, not the CRM's answer.
    await expect(post(`${crm.url}/x`, { 'x-note': 'two\nlines' })).rejects.toThrow(TypeError);
  });

  it('reads CRM_TIMEOUT_MS, defaulting to 8 s and capping far below the 60 s limit', () => {
    const crmTimeoutFromEnv = (env: EnvReader) => readConfig(env).config.crmTimeoutMs;
    expect(crmTimeoutFromEnv(envOf({}))).toBe(8_000);
    expect(crmTimeoutFromEnv(envOf({ CRM_TIMEOUT_MS: '2500' }))).toBe(2_500);
    expect(crmTimeoutFromEnv(envOf({ CRM_TIMEOUT_MS: '90000' }))).toBe(8_000);
    expect(crmTimeoutFromEnv(envOf({ CRM_TIMEOUT_MS: 'soon' }))).toBe(8_000);
  });

  it('parses Retry-After as seconds or an HTTP date, clamped to 1 s .. 1 h', () => {
    const now = new Date('2026-11-20T10:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('0', now)).toBe(1);
    expect(parseRetryAfter('999999', now)).toBe(3_600);
    expect(parseRetryAfter('Fri, 20 Nov 2026 10:00:42 GMT', now)).toBe(42);
    expect(parseRetryAfter('later', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('allows https endpoints, and plain http only on loopback', () => {
    expect(isAllowedEndpoint('https://crm.example/hook')).toBe(true);
    expect(isAllowedEndpoint('http://127.0.0.1:9000/hook')).toBe(true);
    expect(isAllowedEndpoint('http://[::1]:9000/hook')).toBe(true);
    expect(isAllowedEndpoint('http://localhost:9000/hook')).toBe(true);
    expect(isAllowedEndpoint('http://crm.example/hook')).toBe(false);
    expect(isAllowedEndpoint('http://127.0.0.1.nip.io/hook')).toBe(false);
    expect(isAllowedEndpoint('https://user:pass@crm.example/hook')).toBe(false);
    expect(isAllowedEndpoint('ftp://crm.example/hook')).toBe(false);
    expect(isAllowedEndpoint('not a url')).toBe(false);
  });
});

/** A request as stored when `crm` was configured. */
function sampleRecord(crm: CrmAdapter['name'] = 'inbox'): ProposalRecord {
  return buildRecord(submitRequest(), {
    requestId: randomUUID(),
    receivedAt: new Date().toISOString(),
    crm,
    consent: CONSENT,
    entryKey: 'keys/sample',
    notification: { email: 'not_configured', chat: 'not_configured' },
  });
}
