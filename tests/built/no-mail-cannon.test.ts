/**
 * Nobody can turn the intake against the partner or a stranger, tried on the shipped function
 * in-process with a real SMTP server, a CRM stand-in and a real local Blobs server: the confirmation
 * email repeats nothing the sender wrote, the limits hold under simultaneous submits, and every
 * request is still stored and delivered. The limits a deploy publishes for an environment are the
 * ones the function keeps (the /privacy page's wording of them: tests/built/privacy-page.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataHandlingFromEnv } from '../../src/contract/data-handling.ts';
import type { SubmitRequest } from '../../src/contract/requests.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { startCrmServer } from '../helpers/crm-server.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';
import {
  apiPost,
  restoreEnv,
  shippedFunction,
  storedRecords,
  type ShippedFunction,
} from '../helpers/shipped-function.ts';
import { headerLines, mailsTo, startSmtp, readableMail } from '../helpers/smtp.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';

const SALES = 'sales@kestrelcloud.example';

interface Answer {
  /** The HTTP status; `status` is the body's. */
  http: number;
  status: string;
  request_id: string;
  confirmation_email: string;
  message: string;
}

/** One submit with a new key, as an API client sends it, from `ip`. */
async function submit(fn: ShippedFunction, request: Partial<SubmitRequest>, ip: string): Promise<Answer> {
  const payload = { ...submitRequest(request), role: undefined, form_started_at: undefined, website: undefined };
  const res = await fn.handle(apiPost(payload, { 'idempotency-key': randomUUID() }), { ip });
  return { ...((await res.json()) as Omit<Answer, 'http'>), http: res.status };
}

const subjectOf = (raw: string) => headerLines(raw).find(([name]) => name === 'subject')?.[1] ?? '';

/** Starts the parts and an instance of the function configured with `env` on top of them. */
async function startParts(env: Record<string, string>) {
  const [blobs, crm, smtp] = await Promise.all([startBlobs(), startCrmServer(), startSmtp()]);
  const all = { ...loopbackDeliveryEnv(crm, smtp), NOTIFY_EMAIL: SALES, ...env };
  const fn = await shippedFunction(all);
  return {
    blobs,
    crm,
    smtp,
    fn,
    stop: async () => {
      restoreEnv(all);
      await Promise.all([crm.stop(), smtp.stop()]);
      await blobs.stop();
    },
  };
}

describe('with the default limits', () => {
  let parts: Awaited<ReturnType<typeof startParts>>;
  beforeAll(async () => {
    parts = await startParts({});
  });
  afterAll(() => parts?.stop());

  it('the poisoned submit: the stranger gets none of the sender text, name or link; sales and the CRM get it all', async () => {
    const { fn, smtp, crm } = parts;
    const stranger = `stranger-${randomUUID()}@example.org`;
    const advert = 'Cheap watches at https://spam.example/buy today, best prices';
    const answer = await submit(
      fn,
      {
        email: stranger,
        name: 'Visit spam.example today',
        company: 'Spam Example Ltd',
        business_outcome: advert,
        blocker: 'Go to www.spam.example now',
        constraints: 'Click http://spam.example/now',
      },
      '198.51.100.1',
    );
    expect(answer).toMatchObject({ http: 201, status: 'received', confirmation_email: 'sent' });
    const [mail, ...others] = mailsTo(smtp.messages, stranger);
    expect(others).toHaveLength(0);
    const raw = readableMail(mail!.raw);
    for (const written of ['Visit spam.example', 'spam.example', 'Cheap watches', 'Spam Example', 'www.', 'http://s'])
      expect(raw).not.toContain(written);
    // The To header holds the address only: no display name from the request.
    expect(headerLines(mail!.raw).find(([name]) => name === 'to')?.[1]).toBe(stranger);
    expect(raw).toContain(`Reference: ${answer.request_id}`);
    expect(raw).toContain('Defined project');

    // The sales notice follows the reply (the invocation's waitUntil).
    await fn.settle();
    const notice = mailsTo(smtp.messages, SALES).find((m) => readableMail(m.raw).includes(answer.request_id));
    expect(notice).toBeDefined();
    expect(readableMail(notice!.raw)).toContain(
      'Spam signals: 3 links in the text; request 1 from this address in 24 h',
    );
    const delivered = crm.requests.find((r) => r.body.includes(answer.request_id));
    expect(JSON.parse(delivered!.body)).toMatchObject({
      contact: { name: 'Visit spam.example today' },
      intake: { business_outcome: advert },
      signals: { links: 3, address_requests_24h: 1, form_checks: 'not_checked' },
    });
  });

  it('ten submits for one address: three emails, ten stored, ten CRM records, replies that say which were sent', async () => {
    const { fn, smtp, crm } = parts;
    // The local Blobs server's list stops short when a blob goes while it walks: count only once
    // the replies' after-work (which removes due entries) has finished.
    await fn.settle();
    const before = { stored: (await storedRecords()).length, crm: crm.requests.length };
    const email = `ten-${randomUUID()}@example.com`;
    const answers: Answer[] = [];
    for (let i = 0; i < 10; i++) {
      // Case and +tag vary: one person's address all the same.
      const variant = i % 2 === 0 ? email : email.replace('@', `+t${i}@`).toUpperCase();
      answers.push(await submit(fn, { email: variant, company: `Ten ${i}` }, '198.51.100.2'));
    }
    expect(answers.map((a) => a.http)).toEqual(Array<number>(10).fill(201));
    expect(answers.map((a) => a.confirmation_email)).toEqual([
      ...Array<string>(3).fill('sent'),
      ...Array<string>(7).fill('limited'),
    ]);
    expect(answers[9]!.message).toMatch(/No confirmation email was sent/);
    await fn.settle();
    const emails = smtp.messages.filter((m) => m.to.some((to) => to.toLowerCase().replace(/\+[^@]*/, '') === email));
    const stored = (await storedRecords()).length - before.stored;
    const delivered = crm.requests.length - before.crm;
    expect([emails.length, stored, delivered]).toEqual([3, 10, 10]);
  });

  it('twenty simultaneous submits for a fresh address: at most three emails, twenty stored and delivered', async () => {
    const { fn, smtp, crm } = parts;
    await fn.settle();
    const before = { stored: (await storedRecords()).length, crm: crm.requests.length };
    const email = `twenty-${randomUUID()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit(fn, { email, company: `Twenty ${i}` }, '198.51.100.3')),
    );
    expect(answers.map((a) => a.http).filter((s) => s !== 201)).toEqual([]);
    await fn.settle();
    const emails = mailsTo(smtp.messages, email).length;
    const stored = (await storedRecords()).length - before.stored;
    const delivered = crm.requests.length - before.crm;
    expect(emails).toBeLessThanOrEqual(3);
    expect(answers.filter((a) => a.confirmation_email === 'sent')).toHaveLength(emails);
    expect([stored, delivered]).toEqual([20, 20]);
  });
});

describe('with small limits set in the environment', () => {
  const SMALL = { CONFIRMATION_LIMIT_PER_DAY: '2', NOTIFY_LIMIT_PER_HOUR: '2' };
  let parts: Awaited<ReturnType<typeof startParts>>;
  beforeAll(async () => {
    parts = await startParts(SMALL);
  });
  afterAll(() => parts?.stop());

  it('the site-wide limit stops confirmations and alerts sales once; notices past the hourly limit wait for the digest', async () => {
    const { fn, smtp, crm } = parts;
    const answers: Answer[] = [];
    for (let i = 0; i < 5; i++)
      answers.push(await submit(fn, { email: `site-${i}-${randomUUID()}@example.com` }, `198.51.100.${10 + i}`));
    await fn.settle();
    expect(answers.map((a) => a.confirmation_email)).toEqual(['sent', 'sent', 'limited', 'limited', 'limited']);
    // The alert is a job the third request owed: the next scheduled run sends it.
    await fn.scheduled();
    const toSales = mailsTo(smtp.messages, SALES);
    const alerts = toSales.filter((m) => /Confirmation emails stopped/.test(subjectOf(m.raw)));
    const notices = toSales.filter((m) => /New proposal request/.test(subjectOf(m.raw)));
    const confirmations = smtp.messages.length - toSales.length;
    const stored = (await storedRecords()).length;
    expect([confirmations, alerts.length, notices.length, stored, crm.requests.length]).toEqual([2, 1, 2, 5, 5]);
    expect(readableMail(alerts[0]!.raw)).toContain('CONFIRMATION_LIMIT_PER_DAY');
    // What a build with this environment publishes: the limits the function keeps.
    const published = dataHandlingFromEnv({ name: 'Kestrel Cloud', email: SALES }, SMALL);
    expect(published.limits).toMatchObject({ confirmation_emails_per_day: 2, sales_notices_per_hour: 2 });
  });
});
