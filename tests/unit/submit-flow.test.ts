/** submitProposal against real loopback Blobs, CRM webhook and SMTP servers. */
import { consentDigest } from '../../src/contract/consent.ts';
import { hash, randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { recordKey, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { rawStore, readAll } from '../helpers/blobs.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { CONSENT, submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
const { webhookSecret: secret } = parts;
beforeEach(() => {
  parts.crm.behave({ kind: 'status', status: 200, body: '{}' });
});

function makeDeps(overrides: Partial<Ctx> = {}, more: Record<string, string> = {}): Ctx {
  const env = {
    ...more,
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
    CRM_WEBHOOK_SECRET: secret,
    SMTP_URL: parts.smtp.url,
    MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
  };
  return testCtx(parts.blobs.freshStore(), { env, ...overrides });
}

/** Sets the stored request's claim as an owner that died (or lives) would have left it; its CRM retry due now. */
async function setClaim(deps: Ctx, requestId: string, untilMs: number) {
  const raw = rawStore(deps.store);
  const { work: _work, ...record } = (await raw.get(recordKey(requestId), { type: 'json' })) as ProposalRecord;
  await raw.setJSON(recordKey(requestId), {
    ...record,
    claim: { until: new Date(untilMs).toISOString() },
    written: randomUUID(),
  });
}

async function records(deps: Ctx): Promise<ProposalRecord[]> {
  return (await readAll(deps.store, 'requests/')) as ProposalRecord[];
}

describe('submitProposal', () => {
  it('stores the request with its consent, delivers it once and answers 201 received', async () => {
    const deps = makeDeps();
    const before = Date.now();
    const reply = await submit(deps, submitRequest(), randomUUID());

    expect(reply.status).toBe(201);
    const body = reply.body as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'received', confirmation_email: 'sent', crm: 'webhook' });
    expect(body['request_id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(body['message']).toContain('A confirmation email was sent');

    const stored = await records(deps);
    expect(stored).toHaveLength(1);
    const [record] = stored;
    expect(record?.request_id).toBe(body['request_id']);
    expect(record?.received_at).toBe(body['received_at']);
    expect(record?.consent).toEqual({
      given: true,
      text: CONSENT.text,
      version: CONSENT.version,
      digest: consentDigest(CONSENT.text),
      at: record?.received_at,
      method: 'agent_asserted',
      vouched_by: 'agent',
    });
    expect(Date.parse(record?.consent.at ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(record?.contact).toEqual({
      name: 'Ann Example',
      email: 'ann@example.com',
      company: 'Example GmbH',
      role: 'CTO',
    });
    expect(record?.intake.business_outcome).toBe('Launch the product in the EU by spring.');
    expect(record?.guidance).toEqual({
      question: 'How do we get production ready?',
      industry: 'Retail',
      company_size: '11-50',
      primary_need: 'cloud-engineering',
    });
    expect(record?.delivery).toMatchObject({ crm: 'webhook', state: 'received' });
    expect(record?.confirmation_email.state).toBe('sent');
    expect(JSON.stringify(record)).not.toMatch(/website|form_started_at/);
    expect(parts.crm.requests).toHaveLength(1);
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
  });

  it('replays the stored answer for the same key and payload, with Idempotent-Replayed', async () => {
    const deps = makeDeps();
    const key = randomUUID();
    const first = await submit(deps, submitRequest(), key);
    const second = await submit(deps, submitRequest(), key);

    expect(second.status).toBe(first.status);
    expect(second.body).toEqual(first.body);
    expect(second.headers?.['Idempotent-Replayed']).toBe('true');
    expect(first.headers?.['Idempotent-Replayed']).toBeUndefined();
    expect(parts.crm.requests).toHaveLength(1);
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
    expect(await records(deps)).toHaveLength(1);
  });

  it('treats a retry from a reloaded form (other honeypot value or start time) as the same payload', async () => {
    const deps = makeDeps();
    const key = randomUUID();
    const first = await submit(deps, submitRequest(), key);
    const second = await submit(deps, submitRequest({ form_started_at: 1, website: 'x' }), key);
    expect(second.body).toEqual(first.body);
    expect(parts.crm.requests).toHaveLength(1);
  });

  it('rejects a reused key with a different payload (422) without echoing it', async () => {
    const deps = makeDeps();
    const key = randomUUID();
    await submit(deps, submitRequest(), key);
    const reply = await submit(deps, submitRequest({ company: 'Other Company Ltd' }), key);

    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ type: expect.stringContaining('idempotency-key-reused'), status: 422 });
    expect(JSON.stringify(reply.body)).not.toContain('Other Company');
    expect(JSON.stringify(reply.body)).not.toContain(key);
    expect(parts.crm.requests).toHaveLength(1);
    expect(await records(deps)).toHaveLength(1);
  });

  it('answers 20 concurrent submits with one key with one delivery, one email and identical replies', async () => {
    const deps = makeDeps();
    const key = randomUUID();
    const replies = await Promise.all(Array.from({ length: 20 }, () => submit(deps, submitRequest(), key)));

    expect(parts.crm.requests).toHaveLength(1);
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
    expect(await records(deps)).toHaveLength(1);
    for (const reply of replies) {
      expect(reply.status).toBe(201);
      expect(reply.body).toEqual(replies[0]?.body);
    }
    expect(replies.filter((reply) => reply.headers?.['Idempotent-Replayed'] === undefined)).toHaveLength(1);
  });

  it('answers 409 with retry_after_seconds (the seconds its claim has left) while another request with the key is running', async () => {
    parts.crm.behave({ kind: 'hang' });
    // The CRM call (2 s) outlasts the wait before 409, shortened to 500 ms.
    const deps = makeDeps({}, { CRM_TIMEOUT_MS: '2000' });
    const key = randomUUID();
    const first = submit(deps, submitRequest(), key);
    await expect.poll(() => parts.crm.requests.length).toBe(1);

    const started = Date.now();
    const second = await submit(deps, submitRequest(), key, { inUseWaitMs: 500 });
    // It waited for the other request before answering.
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(second.status).toBe(409);
    const retryAfter = (second.body as { retry_after_seconds: number }).retry_after_seconds;
    expect(retryAfter).toBeGreaterThan(0);
    // A claim lasts no longer than the invocation that took it.
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(deps.limitMs / 1000));
    expect(second.body).toMatchObject({ type: expect.stringContaining('idempotency-key-in-use') });

    expect((await first).status).toBe(202);
  });

  it('forgets a key after 24 hours: a reuse then starts a new request', async () => {
    const deps = makeDeps();
    const key = randomUUID();
    const t0 = new Date('2026-11-20T10:00:00Z');
    const at = (ms: number) => ({ ...deps, now: () => new Date(t0.getTime() + ms) });
    const first = await submit(at(0), submitRequest(), key);

    const within = await submit(at(23 * 3_600_000), submitRequest({ company: 'Later Ltd' }), key);
    expect(within.status).toBe(422);

    const after = await submit(at(24 * 3_600_000 + 1_000), submitRequest({ company: 'Later Ltd' }), key);
    expect(after.status).toBe(201);
    expect(after.headers?.['Idempotent-Replayed']).toBeUndefined();
    expect((after.body as { request_id: string }).request_id).not.toBe(
      (first.body as { request_id: string }).request_id,
    );
    expect(await records(deps)).toHaveLength(2);
  });

  it('takes over a claim whose deadline passed (an owner that died), on the same request id', async () => {
    const deps = makeDeps();
    const key = randomUUID();
    parts.crm.behave({ kind: 'status', status: 503 });
    const first = await submit(deps, submitRequest(), key);
    expect(first.status).toBe(202);
    const requestId = (first.body as { request_id: string }).request_id;
    parts.crm.behave({ kind: 'status', status: 200, body: '{}' });
    // A live owner: the retry waits, then 409; the CRM is not called.
    await setClaim(deps, requestId, Date.now() + 60_000);
    expect((await submit(deps, submitRequest(), key, { inUseWaitMs: 200 })).status).toBe(409);
    expect(parts.crm.requests).toHaveLength(1);
    // Its deadline passed: the retry takes the request over.
    await setClaim(deps, requestId, Date.now() - 1);
    const reply = await submit(deps, submitRequest(), key);
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ request_id: requestId });
    expect(parts.crm.requests.map((r) => r.headers['webhook-id'])).toEqual([requestId, requestId]);
  });

  it('never delivers or emails twice when a retry finds the request already received', async () => {
    const deps = makeDeps();
    const key = randomUUID();
    const first = await submit(deps, submitRequest(), key);
    const requestId = (first.body as { request_id: string }).request_id;
    // Simulate an owner that recorded everything but died before giving its claim up.
    await setClaim(deps, requestId, Date.now() - 1);

    const retry = await submit(deps, submitRequest(), key);
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ status: 'received', request_id: requestId, confirmation_email: 'sent' });
    expect(parts.crm.requests).toHaveLength(1);
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
    const stored = (await rawStore(deps.store).get(recordKey(requestId), { type: 'json' })) as ProposalRecord;
    expect(stored.delivery.state).toBe('received');
    expect(stored.work ?? {}).toEqual({});
  });

  it('keys blobs by a hash of the Idempotency-Key, never the key itself', async () => {
    const deps = makeDeps();
    const key = `visible-key-${randomUUID()}`;
    await submit(deps, submitRequest(), key);
    const { blobs: listed } = await rawStore(deps.store).list();
    expect(listed.map((blob) => blob.key).join('\n')).not.toContain('visible-key');
    expect(listed.some((blob) => blob.key.startsWith('keys/') && blob.key.endsWith(hash('sha256', key)))).toBe(true);
  });
});
