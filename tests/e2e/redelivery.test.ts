/**
 * A lead accepted is a lead handled, through `npm start`: a request that met a CRM outage is
 * delivered once the CRM heals, by the sweep that other visitors' requests start after their
 * replies (context.waitUntil), while its sender never comes back. One CRM record, one
 * confirmation email, one notice to the sales team; a late retry by the sender replays.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OK, startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';

const SALES = 'sales@kestrelcloud.example';
let crm: TestCrmServer;
let smtp: TestSmtp;
let site: RunningSite;

beforeAll(async () => {
  [crm, smtp] = await Promise.all([startCrmServer(), startSmtp()]);
  site = await startSite({
    ...loopbackDeliveryEnv(crm, smtp),
    CRM_TIMEOUT_MS: '1000',
    NOTIFY_EMAIL: SALES,
    REDELIVERY_INTERVAL_SECONDS: '1',
    REDELIVERY_BACKOFF_SECONDS: '1',
  });
});
afterAll(async () => {
  await site?.stop();
  await Promise.all([crm?.stop(), smtp?.stop()]);
});

const post = (body: unknown, key?: string) =>
  fetch(`${site.url}/api/proposal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key !== undefined && { 'idempotency-key': key }) },
    body: JSON.stringify(body),
  });

/** Messages to the sales team that name the request (quoted-printable soft line breaks undone). */
const noticesOf = (requestId: string) =>
  mailsTo(smtp.messages, SALES).filter((m) => m.raw.replace(/=\r?\n/g, '').includes(requestId));

/** Deliveries of one request: webhook-id is the request id. */
const accepted = (requestId: string) =>
  crm.requests.filter((r) => r.headers['webhook-id'] === requestId && r.path === '/hook').length;

describe('npm start delivers a pending request without its sender', () => {
  it('CRM down at submit, then healed: other requests start the sweep; one record, one email, one notice', async () => {
    crm.behave({ kind: 'status', status: 503 });
    const key = randomUUID();
    const email = `lead-${key.slice(0, 8)}@example.com`;
    const request = { ...submitRequest({ email, company: 'Sweep GmbH' }), role: undefined };
    const first = await post(request, key);
    expect(first.status).toBe(202);
    const { request_id: requestId, status } = (await first.json()) as { request_id: string; status: string };
    expect(status).toBe('pending');
    const refusedAttempts = accepted(requestId);
    expect(refusedAttempts).toBe(1);

    crm.behave(OK);
    const healedAt = crm.requests.length;
    // Other visitors ask for guidance; the sender never retries.
    const guide = { action: 'guide', question: 'How do we start?', industry: 'Retail', company_size: '11-50' };
    const deadline = Date.now() + 60_000;
    while (
      (crm.requests.slice(healedAt).every((r) => r.headers['webhook-id'] !== requestId) ||
        mailsTo(smtp.messages, email).length === 0) &&
      Date.now() < deadline
    ) {
      expect((await post({ ...guide, primary_need: 'cloud-engineering' })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
    }
    const delivered = crm.requests.slice(healedAt).filter((r) => r.headers['webhook-id'] === requestId);
    expect(delivered).toHaveLength(1);
    expect(mailsTo(smtp.messages, email)).toHaveLength(1);
    // The notice went out when the request arrived (saying the CRM did not have it yet), once.
    expect(noticesOf(requestId)).toHaveLength(1);

    // The sender's late retry replays the completed request; nothing is sent again.
    const late = await post(request, key);
    expect(late.status).toBe(201);
    expect(late.headers.get('idempotent-replayed')).toBe('true');
    expect(await late.json()).toMatchObject({ request_id: requestId, status: 'received', confirmation_email: 'sent' });
    // More sweeps come and go; still one of each.
    for (let i = 0; i < 3; i++) {
      await post({ ...guide, primary_need: 'cloud-engineering' });
      await new Promise((r) => setTimeout(r, 700));
    }
    expect(crm.requests.slice(healedAt).filter((r) => r.headers['webhook-id'] === requestId)).toHaveLength(1);
    expect(mailsTo(smtp.messages, email)).toHaveLength(1);
    expect(noticesOf(requestId)).toHaveLength(1);
  });
});
