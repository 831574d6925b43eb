/** The confirmation email: sent once after the CRM accepted, reported honestly, never injectable (issue 45: text and HTML from one template). */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findViolations } from '../../src/lib/content/rules.ts';
import { readConfig } from '../../src/proposal/config.ts';
import { createMailer } from '../../src/proposal/notify/mail.ts';
import { singleLine } from '../../src/proposal/notify/text.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { readAll, startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { headerLines, mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { IDENTITY, PARTNER, envOf, submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

let blobs: TestBlobs;
let smtp: TestSmtp;

beforeAll(async () => {
  [blobs, smtp] = await Promise.all([startBlobs(), startSmtp()]);
});
afterAll(async () => {
  await smtp.stop();
  await blobs.stop();
});
beforeEach(() => {
  smtp.messages.length = 0;
  smtp.rejectRecipients(false);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

function makeDeps(smtpUrl: string | null): Ctx {
  const env = smtpUrl === null ? {} : { SMTP_URL: smtpUrl, MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>' };
  const partner = {
    ...PARTNER,
    choiceLabels: { 'defined-project': 'Defined project', 'cloud-engineering': 'Cloud engineering' },
  };
  return testCtx(blobs.freshStore(), { env, partner });
}

function bodyOf(reply: { body: unknown }): Record<string, unknown> {
  return reply.body as Record<string, unknown>;
}

describe('confirmation email', () => {
  it('sends one email, text and HTML, with the request id and the secrets reminder, and nothing the sender wrote', async () => {
    const reply = await submit(makeDeps(smtp.url), submitRequest(), randomUUID());
    const body = bodyOf(reply);
    expect(body['confirmation_email']).toBe('sent');
    const confirmations = mailsTo(smtp.messages, 'ann@example.com');
    expect(confirmations).toHaveLength(1);

    const [mail] = confirmations;
    expect(mail?.to).toEqual(['ann@example.com']);
    expect(mail?.from).toBe('no-reply@kestrel.example');
    const headers = new Map(headerLines(mail?.raw ?? ''));
    expect(headers.get('reply-to')).toBe('hello@kestrel.example');
    expect(headers.get('subject')).toBe(`Your proposal request to ${PARTNER.name}`);
    expect(headers.get('content-type')).toMatch(/^multipart\/alternative/);

    const text = partOf(mail?.raw ?? '', 'text/plain');
    expect(text).toContain(`Reference: ${String(body['request_id'])}`);
    // The site's own names of the choices, never the sender's words.
    expect(text).toContain('You asked about: Cloud engineering');
    expect(text).toContain('Defined project');
    // The HTML part says the same, from the same template.
    expect(partOf(mail?.raw ?? '', 'text/html')).toContain(`Reference: ${String(body['request_id'])}`);
    for (const written of [
      'Ann Example',
      'Example GmbH',
      'Launch the product',
      'Prototype on a single VM',
      'CTO',
      'Retail',
    ])
      expect(mail?.raw).not.toContain(written);
    expect(text).toContain('independent cloud consulting and delivery partner');
    expect(text).toMatch(/never send credentials/);
    expect(findViolations(text, IDENTITY)).toEqual([]);
    expect(findViolations(String(body['message']), IDENTITY)).toEqual([]);
  });

  it('keeps the email owed while the SMTP server is down, and a retry with the key sends it once', async () => {
    const down = await startSmtp();
    await down.stop();
    const key = randomUUID();
    const deps = makeDeps(down.url);
    const reply = await submit(deps, submitRequest(), key);

    expect(reply.status).toBe(201);
    expect(bodyOf(reply)).toMatchObject({ status: 'received', confirmation_email: 'not_sent' });
    expect(bodyOf(reply)['message']).not.toMatch(/email was sent/i);
    const [record] = (await readAll(deps.store, 'requests/')) as ProposalRecord[];
    expect(record).toMatchObject({
      confirmation_email: { state: 'not_sent' },
      work: { confirmation_email: { attempts: 1 } },
    });
    const logged = vi.mocked(console.warn).mock.calls.flat().join(' ');
    expect(logged).toMatch(/"code":"E[A-Z]+"/);
    expect(logged).not.toContain('ann@example.com');

    // The mail server is back and the email's backoff has run: the retry completes it, later retries replay it.
    const healed = { ...makeDeps(smtp.url), store: deps.store, now: () => new Date(Date.now() + 3_600_000) };
    const retry = await submit(healed, submitRequest(), key);
    expect(bodyOf(retry)).toMatchObject({
      status: 'received',
      confirmation_email: 'sent',
      request_id: bodyOf(reply)['request_id'],
    });
    const replayed = await submit(healed, submitRequest(), key);
    expect(replayed.headers?.['Idempotent-Replayed']).toBe('true');
    expect(mailsTo(smtp.messages, 'ann@example.com')).toHaveLength(1);
  });

  it('reports failed when the SMTP server refuses the recipient', async () => {
    smtp.rejectRecipients(true);
    const reply = await submit(makeDeps(smtp.url), submitRequest(), randomUUID());
    expect(bodyOf(reply)).toMatchObject({ status: 'received', confirmation_email: 'failed' });
  });

  it('reports not_configured without SMTP_URL and MAIL_FROM, and claims no email', async () => {
    const mailer = (env: Record<string, string>) => createMailer(readConfig(envOf(env)).config.mail);
    expect(mailer({ SMTP_URL: smtp.url })).toBeNull();
    expect(mailer({ MAIL_FROM: 'a@b.example' })).toBeNull();
    const reply = await submit(makeDeps(null), submitRequest(), randomUUID());
    expect(bodyOf(reply)).toMatchObject({ status: 'received', confirmation_email: 'not_configured', crm: 'inbox' });
    expect(bodyOf(reply)['message']).not.toMatch(/email was sent/i);
    expect(smtp.messages).toHaveLength(0);
  });

  it('cannot be used to inject headers through the name', async () => {
    const name = 'Ann\r\nBcc: victim@evil.example\r\nX-Injected: 1';
    const reply = await submit(makeDeps(smtp.url), submitRequest({ name }), randomUUID());
    expect(bodyOf(reply)['confirmation_email']).toBe('sent');

    const [mail] = mailsTo(smtp.messages, 'ann@example.com');
    expect(mail?.to).toEqual(['ann@example.com']);
    const names = headerLines(mail?.raw ?? '').map(([header]) => header);
    expect(names).not.toContain('bcc');
    expect(names).not.toContain('x-injected');
    expect(names.filter((header) => header === 'to')).toHaveLength(1);
  });

  it('strips CR, LF and control characters from header values', () => {
    expect(singleLine('Ann\r\nBcc: x@y')).toBe('Ann Bcc: x@y');
    expect(singleLine('A\u0000B\u0007C\u2028D\u007f')).toBe('A B C D');
  });
});

/** One part (`text/plain`, `text/html`) of a multipart message, decoding quoted-printable and base64. */
function partOf(raw: string, type: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1] ?? '';
  for (const part of raw.split(`--${boundary}`).slice(1)) {
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
    if (!new RegExp(`content-type:\\s*${type}`, 'i').test(head)) continue;
    const body = rest.join('\n\n').replace(/\r?\n$/, '');
    if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body, 'base64').toString('utf8');
    if (!/content-transfer-encoding:\s*quoted-printable/i.test(head)) return body.replace(/\r\n/g, '\n');
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/\r\n/g, '\n')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return '';
}
