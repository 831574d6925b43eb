/** The confirmation email: sent once after the CRM accepted, reported honestly, never injectable. */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findViolations } from '../../src/lib/content/rules.ts';
import { FIELD_LABELS } from '../../src/contract/fields.ts';
import type { SubmitDeps } from '../../src/proposal/submit/config.ts';
import { singleLine } from '../../src/proposal/submit/single-line.ts';
import { submitProposal } from '../../src/proposal/submit/index.ts';
import { createMailer } from '../../src/proposal/submit/mailer.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { readAll, startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { headerLines, mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { IDENTITY, PARTNER, envOf, submitRequest, testSubmitDeps } from '../helpers/submit-fixtures.ts';

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

function makeDeps(smtpUrl: string | null): SubmitDeps {
  const env = smtpUrl === null ? {} : { SMTP_URL: smtpUrl, MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>' };
  const partner = {
    ...PARTNER,
    choiceLabels: { 'defined-project': 'Defined project', 'cloud-engineering': 'Cloud engineering' },
  };
  return testSubmitDeps(blobs.freshStore(), { env, partner });
}

function bodyOf(reply: { body: unknown }): Record<string, unknown> {
  return reply.body as Record<string, unknown>;
}

describe('confirmation email', () => {
  it('sends one plain-text email with the request id and the secrets reminder, and nothing the sender wrote', async () => {
    const reply = await submitProposal(submitRequest(), randomUUID(), makeDeps(smtp.url));
    const body = bodyOf(reply);
    expect(body['confirmation_email']).toBe('sent');
    const confirmations = mailsTo(smtp.messages, 'ann@example.com');
    expect(confirmations).toHaveLength(1);

    const [mail] = confirmations;
    expect(mail?.to).toEqual(['ann@example.com']);
    expect(mail?.from).toBe('no-reply@kestrel.example');
    const headers = new Map(headerLines(mail?.raw ?? ''));
    expect(headers.get('reply-to')).toBe('hello@kestrel.example');
    expect(headers.get('subject')).toContain(String(body['request_id']));
    expect(headers.get('content-type')).toMatch(/^text\/plain/);

    const text = decodeBody(mail?.raw ?? '');
    expect(text).toContain(`Request id: ${String(body['request_id'])}`);
    // The site's own names of the choices, never the sender's words.
    expect(text).toContain(`${FIELD_LABELS.engagement_model}: Defined project`);
    expect(text).toContain(`${FIELD_LABELS.primary_need}: Cloud engineering`);
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
    expect(text).toMatch(/do not reply with credentials/);
    expect(findViolations(text, IDENTITY)).toEqual([]);
    expect(findViolations(String(body['message']), IDENTITY)).toEqual([]);
  });

  it('keeps the email owed while the SMTP server is down, and a retry with the key sends it once', async () => {
    const down = await startSmtp();
    await down.stop();
    const key = randomUUID();
    const deps = makeDeps(down.url);
    const reply = await submitProposal(submitRequest(), key, deps);

    expect(reply.status).toBe(201);
    expect(bodyOf(reply)).toMatchObject({ status: 'received', confirmation_email: 'not_sent' });
    expect(bodyOf(reply)['message']).not.toMatch(/email was sent/i);
    const [record] = (await readAll(deps.store, 'requests/')) as ProposalRecord[];
    expect(record?.confirmation_email).toMatchObject({ state: 'not_sent', attempts: 1 });
    const logged = vi.mocked(console.warn).mock.calls.flat().join(' ');
    expect(logged).toMatch(/"code":"E[A-Z]+"/);
    expect(logged).not.toContain('ann@example.com');

    // The mail server is back and the email's backoff has run: the retry completes it, later retries replay it.
    const healed = { ...makeDeps(smtp.url), store: deps.store, now: () => new Date(Date.now() + 3_600_000) };
    const retry = await submitProposal(submitRequest(), key, healed);
    expect(bodyOf(retry)).toMatchObject({
      status: 'received',
      confirmation_email: 'sent',
      request_id: bodyOf(reply)['request_id'],
    });
    const replayed = await submitProposal(submitRequest(), key, healed);
    expect(replayed.headers?.['Idempotent-Replayed']).toBe('true');
    expect(mailsTo(smtp.messages, 'ann@example.com')).toHaveLength(1);
  });

  it('reports failed when the SMTP server refuses the recipient', async () => {
    smtp.rejectRecipients(true);
    const reply = await submitProposal(submitRequest(), randomUUID(), makeDeps(smtp.url));
    expect(bodyOf(reply)).toMatchObject({ status: 'received', confirmation_email: 'failed' });
  });

  it('reports not_configured without SMTP_URL and MAIL_FROM, and claims no email', async () => {
    expect(createMailer(envOf({ SMTP_URL: smtp.url }))).toBeNull();
    expect(createMailer(envOf({ MAIL_FROM: 'a@b.example' }))).toBeNull();
    const reply = await submitProposal(submitRequest(), randomUUID(), makeDeps(null));
    expect(bodyOf(reply)).toMatchObject({ status: 'received', confirmation_email: 'not_configured', crm: 'inbox' });
    expect(bodyOf(reply)['message']).not.toMatch(/email was sent/i);
    expect(smtp.messages).toHaveLength(0);
  });

  it('cannot be used to inject headers through the name', async () => {
    const name = 'Ann\r\nBcc: victim@evil.example\r\nX-Injected: 1';
    const reply = await submitProposal(submitRequest({ name }), randomUUID(), makeDeps(smtp.url));
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

/** The text part of a single-part message, decoding quoted-printable. */
function decodeBody(raw: string): string {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(head)) return body.replace(/\r\n/g, '\n');
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/\r\n/g, '\n')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
