/** CRM adapters against a loopback HTTP server: what goes over the wire and how it is read back. */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { crmAdapterFromEnv, crmTimeoutFromEnv } from '../../src/proposal/submit/config.ts';
import {
  deliverWithin,
  isAllowedEndpoint,
  parseRetryAfter,
  type CrmAdapter,
  type HubSpotSubmission,
} from '../../src/proposal/submit/crm.ts';
import { submitProposal } from '../../src/proposal/submit/index.ts';
import { buildRecord, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import {
  CONSENT,
  PARTNER,
  envOf,
  newWebhookSecret,
  submitRequest,
  testSubmitDeps,
} from '../helpers/submit-fixtures.ts';

let blobs: TestBlobs;
let crm: TestCrmServer;

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
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
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
    const deps = testSubmitDeps(blobs.freshStore(), { env });
    const key = `key-${randomUUID()}`;
    const reply = await submitProposal(submitRequest(), key, deps);
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
    const payload = new Webhook(secret).verify(request?.body ?? '', headers) as ProposalRecord;
    expect(payload.request_id).toBe((reply.body as { request_id: string }).request_id);
    expect(payload.consent).toMatchObject({ given: true, text: CONSENT.text, version: CONSENT.version });
    expect(() => new Webhook(newWebhookSecret()).verify(request?.body ?? '', headers)).toThrow();
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
    expect(await deliverWithin(adapter, sampleRecord(), 1_000)).toEqual({ ok: false, kind: 'misconfigured' });
    expect(vi.mocked(console.warn).mock.calls.flat().join(' ')).toContain(variable);
  });
});

describe('hubspot adapter', () => {
  it('posts a Forms API secure submission with legal consent, to the portal and form', async () => {
    const deps = testSubmitDeps(blobs.freshStore(), { env: hubspotEnv() });
    const reply = await submitProposal(submitRequest(), randomUUID(), deps);
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
    const deps = testSubmitDeps(blobs.freshStore(), { env: hubspotEnv() });
    const reply = await submitProposal(submitRequest(), randomUUID(), deps);
    expect(reply.status).toBe(202);
  });

  it.each(['HUBSPOT_PORTAL_ID', 'HUBSPOT_FORM_GUID', 'HUBSPOT_ACCESS_TOKEN'])(
    'is misconfigured without %s',
    async (variable) => {
      const adapter = crmAdapterFromEnv(envOf({ ...hubspotEnv(), [variable]: '' }), PARTNER);
      expect(await deliverWithin(adapter, sampleRecord(), 1_000)).toEqual({ ok: false, kind: 'misconfigured' });
      expect(vi.mocked(console.warn).mock.calls.flat().join(' ')).toContain(variable);
    },
  );

  it('defaults to api.hsforms.com and refuses a plain-http base off loopback', async () => {
    const adapter = crmAdapterFromEnv(envOf({ ...hubspotEnv(), HUBSPOT_API_BASE: 'http://api.hsforms.com' }), PARTNER);
    expect(await deliverWithin(adapter, sampleRecord(), 1_000)).toMatchObject({ kind: 'misconfigured' });
    expect(vi.mocked(console.warn).mock.calls.flat().join(' ')).toContain('HUBSPOT_API_BASE');
  });
});

describe('delivery plumbing', () => {
  it('defaults to the inbox, which accepts at once', async () => {
    const adapter = crmAdapterFromEnv(envOf({}), PARTNER);
    expect(adapter.name).toBe('inbox');
    expect(await deliverWithin(adapter, sampleRecord(), 1_000)).toEqual({ ok: true });
  });

  it('times out an adapter that ignores its abort signal', async () => {
    const stuck: CrmAdapter = { name: 'webhook', deliver: () => new Promise(() => undefined) };
    // Without its own deadline this would never settle (the test's timeout would fail it).
    expect(await deliverWithin(stuck, sampleRecord(), 50)).toEqual({ ok: false, kind: 'timeout' });
  });

  it('turns a throwing adapter into a retryable failure', async () => {
    const broken: CrmAdapter = { name: 'webhook', deliver: () => Promise.reject(new Error('boom')) };
    expect(await deliverWithin(broken, sampleRecord(), 1_000)).toEqual({ ok: false, kind: 'unreachable' });
  });

  it('reads CRM_TIMEOUT_MS, defaulting to 8 s and capping far below the 60 s limit', () => {
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

function sampleRecord(): ProposalRecord {
  return buildRecord(submitRequest(), {
    requestId: randomUUID(),
    receivedAt: new Date().toISOString(),
    crm: 'inbox',
    consent: CONSENT,
  });
}
