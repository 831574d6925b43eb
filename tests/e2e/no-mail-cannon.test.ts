/**
 * Nobody can turn the intake against the partner or a stranger, tried through `npm start` with a
 * real SMTP server and a CRM stand-in: the confirmation email repeats nothing the sender wrote,
 * the limits hold under simultaneous submits, and every request is still stored and delivered.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { headerLines, mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { submitWithRetries } from '../helpers/submit-client.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import type { SubmitRequest } from '../../src/contract/requests.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';

const SALES = 'sales@kestrelcloud.example';

interface Answer {
  /** The HTTP status; `status` is the body's. */
  http: number;
  status: string;
  request_id: string;
  confirmation_email: string;
  message: string;
}

/** One submit with a new key, retried as the contract says (tests/helpers/submit-client.ts). */
async function submit(site: RunningSite, request: Partial<SubmitRequest>): Promise<Answer> {
  const payload = JSON.stringify({
    ...submitRequest(request),
    role: undefined,
    form_started_at: undefined,
    website: undefined,
  });
  const { http, body, retries } = await submitWithRetries(site.url, payload);
  retried += retries;
  return { ...(body as Omit<Answer, 'http'>), http };
}
/** Retries the store asked for (reported with the counts). */
let retried = 0;

/** Stored requests, read where `netlify serve` keeps the site's blobs. */
function storedRequests(site: RunningSite): number {
  return readdirSync(join(site.dir, '.netlify/blobs-serve/entries'), { recursive: true, encoding: 'utf8' }).filter(
    (p) => /proposals[\\/]requests[\\/][0-9a-f-]{36}$/.test(p),
  ).length;
}

/** Headers, then the body decoded (base64 or quoted-printable), as a mail client shows them. */
function readable(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  const body = raw.slice(split).trim();
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body, 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body
              .replace(/=\r?\n/g, '')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return `${head}\n\n${text}`;
}
const subjectOf = (raw: string) => headerLines(raw).find(([name]) => name === 'subject')?.[1] ?? '';

async function startParts(env: Record<string, string>) {
  const [crm, smtp] = await Promise.all([startCrmServer(), startSmtp()]);
  const site = await startSite({
    ...loopbackDeliveryEnv(crm, smtp),
    NOTIFY_EMAIL: SALES,
    ...env,
  });
  return { crm, smtp, site };
}

describe('with the default limits', () => {
  let site: RunningSite;
  let crm: TestCrmServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    ({ site, crm, smtp } = await startParts({}));
  });
  afterAll(async () => {
    await site?.stop();
    await Promise.all([crm?.stop(), smtp?.stop()]);
  });

  it('the poisoned submit: the stranger gets none of the sender text, name or link; sales and the CRM get it all', async () => {
    const stranger = `stranger-${randomUUID()}@example.org`;
    const advert = 'Cheap watches at https://spam.example/buy today, best prices';
    const answer = await submit(site, {
      email: stranger,
      name: 'Visit spam.example today',
      company: 'Spam Example Ltd',
      business_outcome: advert,
      blocker: 'Go to www.spam.example now',
      constraints: 'Click http://spam.example/now',
    });
    expect(answer).toMatchObject({ http: 201, status: 'received', confirmation_email: 'sent' });
    const [mail, ...others] = mailsTo(smtp.messages, stranger);
    expect(others).toHaveLength(0);
    const raw = readable(mail!.raw);
    for (const written of ['Visit spam.example', 'spam.example', 'Cheap watches', 'Spam Example', 'www.', 'http://s'])
      expect(raw).not.toContain(written);
    // The To header holds the address only: no display name from the request.
    expect(headerLines(mail!.raw).find(([name]) => name === 'to')?.[1]).toBe(stranger);
    expect(raw).toContain(`Request id: ${answer.request_id}`);
    expect(raw).toContain('engagement model: Defined project');

    // The sales notice follows the reply (the invocation's waitUntil).
    const noticeOf = () => mailsTo(smtp.messages, SALES).find((m) => m.raw.includes(answer.request_id));
    await expect.poll(noticeOf, { timeout: 10_000 }).toBeDefined();
    const notice = noticeOf();
    expect(readable(notice!.raw)).toContain('Spam signals: 3 links in the text; request 1 from this address in 24 h');
    const delivered = crm.requests.find((r) => r.body.includes(answer.request_id));
    expect(JSON.parse(delivered!.body)).toMatchObject({
      contact: { name: 'Visit spam.example today' },
      intake: { business_outcome: advert },
      signals: { links: 3, address_requests_24h: 1, form_checks: 'not_checked' },
    });
    console.info(
      `poisoned submit: ${mailsTo(smtp.messages, stranger).length} email to the stranger, ${storedRequests(site)} stored, ${crm.requests.length} CRM record`,
    );
  });

  it('ten submits for one address: three emails, ten stored, ten CRM records, replies that say which were sent', async () => {
    const before = { stored: storedRequests(site), crm: crm.requests.length };
    const email = `ten-${randomUUID()}@example.com`;
    const answers: Answer[] = [];
    for (let i = 0; i < 10; i++) {
      // Case and +tag vary: one person's address all the same.
      const variant = i % 2 === 0 ? email : email.replace('@', `+t${i}@`).toUpperCase();
      answers.push(await submit(site, { email: variant, company: `Ten ${i}` }));
    }
    expect(answers.map((a) => a.http)).toEqual(Array<number>(10).fill(201));
    expect(answers.map((a) => a.confirmation_email)).toEqual([
      ...Array<string>(3).fill('sent'),
      ...Array<string>(7).fill('limited'),
    ]);
    expect(answers[9]!.message).toMatch(/No confirmation email was sent/);
    const emails = smtp.messages.filter((m) => m.to.some((to) => to.toLowerCase().replace(/\+[^@]*/, '') === email));
    const stored = storedRequests(site) - before.stored;
    const delivered = crm.requests.length - before.crm;
    expect([emails.length, stored, delivered]).toEqual([3, 10, 10]);
    console.info(`ten submits, one address: ${emails.length} emails, ${stored} stored, ${delivered} CRM records`);
  });

  it('twenty simultaneous submits for a fresh address: at most three emails, twenty stored and delivered', async () => {
    const before = { stored: storedRequests(site), crm: crm.requests.length };
    const email = `twenty-${randomUUID()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit(site, { email, company: `Twenty ${i}` })),
    );
    const storeLog = () =>
      site
        .output()
        .split('\n')
        .filter((line) => /store_unavailable|unexpected_error/.test(line))
        .join('\n');
    expect(
      answers.map((a) => a.http).filter((s) => s !== 201),
      storeLog(),
    ).toEqual([]);
    const emails = mailsTo(smtp.messages, email).length;
    const stored = storedRequests(site) - before.stored;
    const delivered = crm.requests.length - before.crm;
    expect(emails).toBeLessThanOrEqual(3);
    expect(answers.filter((a) => a.confirmation_email === 'sent')).toHaveLength(emails);
    expect([stored, delivered]).toEqual([20, 20]);
    console.info(
      `twenty simultaneous, one address: ${emails} emails, ${stored} stored, ${delivered} CRM records (${retried} retries after 409/503 so far)`,
    );
  });

  it('serves /privacy with the limits the contract states', async () => {
    const [page, contract] = await Promise.all([
      fetch(`${site.url}/privacy`).then(async (r) => ({ status: r.status, text: await r.text() })),
      fetch(`${site.url}/api/proposal`).then(
        async (r) => (await r.json()) as { data_handling: { limits: Record<string, number>; privacy_notice: string } },
      ),
    ]);
    expect(page.status).toBe(200);
    const limits = contract.data_handling.limits;
    expect(page.text).toContain(`at most ${limits['confirmation_emails_per_address_per_day']}.`);
    expect(page.text).toContain(`at most ${limits['confirmation_emails_per_day']}.`);
    expect(new URL(contract.data_handling.privacy_notice).pathname).toBe('/privacy');
  });
});

describe('with small limits set in the environment', () => {
  let site: RunningSite;
  let crm: TestCrmServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    ({ site, crm, smtp } = await startParts({ CONFIRMATION_LIMIT_PER_DAY: '2', NOTIFY_LIMIT_PER_HOUR: '2' }));
  });
  afterAll(async () => {
    await site?.stop();
    await Promise.all([crm?.stop(), smtp?.stop()]);
  });

  it('the site-wide limit stops confirmations and alerts sales once; notices past the hourly limit wait for the digest', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 5; i++) answers.push(await submit(site, { email: `site-${i}-${randomUUID()}@example.com` }));
    expect(answers.map((a) => a.confirmation_email)).toEqual(['sent', 'sent', 'limited', 'limited', 'limited']);
    const toSales = mailsTo(smtp.messages, SALES);
    const alerts = toSales.filter((m) => /Confirmation emails stopped/.test(subjectOf(m.raw)));
    const notices = toSales.filter((m) => /New proposal request/.test(subjectOf(m.raw)));
    const confirmations = smtp.messages.length - toSales.length;
    expect([confirmations, alerts.length, notices.length, storedRequests(site), crm.requests.length]).toEqual([
      2, 1, 2, 5, 5,
    ]);
    expect(readable(alerts[0]!.raw)).toContain('CONFIRMATION_LIMIT_PER_DAY');
    // The digest of this hour is owed by the third request; the inbox lists it as in the digest.
    const contract = (await (await fetch(`${site.url}/api/proposal`)).json()) as {
      data_handling: { limits: { confirmation_emails_per_day: number; sales_notices_per_hour: number } };
    };
    expect(contract.data_handling.limits).toMatchObject({ confirmation_emails_per_day: 2, sales_notices_per_hour: 2 });
    console.info(
      `site-wide limit 2, notice limit 2, five submits: ${confirmations} confirmations, ${alerts.length} alert, ${notices.length} notices, ${storedRequests(site)} stored, ${crm.requests.length} CRM records`,
    );
  });
});
