/**
 * A lead accepted is a lead handled on a quiet site, through `npm start`: a request that met a CRM
 * outage is delivered once the CRM heals, by the scheduled function that npm start runs on its own
 * clock (scripts/serve/schedule.ts), with no other request at all. One CRM record, one confirmation
 * email, one notice to the sales team; a late retry by the sender replays.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OK, startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';

const SALES = 'sales@kestrelcloud.example';
const CADENCE_S = 4;
let crm: TestCrmServer;
let smtp: TestSmtp;
let site: RunningSite;

beforeAll(async () => {
  [crm, smtp] = await Promise.all([startCrmServer(), startSmtp()]);
  site = await startSite({
    ...loopbackDeliveryEnv(crm, smtp),
    CRM_TIMEOUT_MS: '1000',
    NOTIFY_EMAIL: SALES,
    REDELIVERY_BACKOFF_SECONDS: '1',
    // The schedule's cadence, shortened from a minute so the test waits seconds: within two of them.
    OWED_WORK_EVERY_SECONDS: String(CADENCE_S),
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

/** The request's record and due entries, where `netlify serve` keeps the site's blobs. */
function owesNothing(requestId: string): boolean {
  const root = join(site.dir, '.netlify/blobs-serve/entries');
  const paths = readdirSync(root, { recursive: true, encoding: 'utf8' });
  const record = paths.find((p) => p.endsWith(`requests${sep}${requestId}`));
  if (record === undefined) return false;
  const { claim, due_at } = JSON.parse(readFileSync(join(root, record), 'utf8')) as ProposalRecord;
  return (
    claim === undefined &&
    due_at === undefined &&
    !paths.some((p) => p.includes(`${sep}due${sep}`) && p.endsWith(requestId))
  );
}

/** Deliveries of one request: webhook-id is the request id. */
const accepted = (requestId: string) =>
  crm.requests.filter((r) => r.headers['webhook-id'] === requestId && r.path === '/hook').length;

describe('npm start delivers a pending request without its sender', () => {
  it('CRM down at submit, then healed: the scheduled run alone delivers it within two cadences; one record, one email, one notice', async () => {
    crm.behave({ kind: 'status', status: 503 });
    const key = randomUUID();
    const email = `lead-${key.slice(0, 8)}@example.com`;
    const request = { ...submitRequest({ email, company: 'Quiet GmbH' }), role: undefined };
    const first = await post(request, key);
    expect(first.status).toBe(202);
    const { request_id: requestId, status } = (await first.json()) as { request_id: string; status: string };
    expect(status).toBe('pending');
    expect(accepted(requestId)).toBeGreaterThanOrEqual(1);

    // The CRM heals; nobody sends anything from here on.
    crm.behave(OK);
    const healedAt = Date.now();
    const before = crm.requests.length;
    const afterHealing = () =>
      crm.requests.slice(before).filter((r) => r.headers['webhook-id'] === requestId && r.path === '/hook').length;
    await expect
      .poll(() => afterHealing() === 1 && mailsTo(smtp.messages, email).length === 1, {
        timeout: 2 * CADENCE_S * 1000 + 10_000,
        interval: 250,
      })
      .toBe(true);
    // Within two cadences, plus the run's own time on a busy machine.
    expect(Date.now() - healedAt).toBeLessThan(2 * CADENCE_S * 1000 + 10_000);
    // The notice went out when the request arrived (saying the CRM did not have it yet), once.
    expect(noticesOf(requestId)).toHaveLength(1);

    // The sender's late retry replays the completed request; nothing is sent again.
    const late = await post(request, key);
    expect(late.status).toBe(201);
    expect(late.headers.get('idempotent-replayed')).toBe('true');
    expect(await late.json()).toMatchObject({ request_id: requestId, status: 'received', confirmation_email: 'sent' });
    // Nothing of it is owed any more (no claim, no due entry), so no later scheduled run can send
    // anything again; still one of each.
    await expect.poll(() => owesNothing(requestId)).toBe(true);
    expect(afterHealing()).toBe(1);
    expect(mailsTo(smtp.messages, email)).toHaveLength(1);
    expect(noticesOf(requestId)).toHaveLength(1);
  });
});
