/**
 * Sales messages show what was sent and nothing more: hostile company names reach the chat stand-in
 * with Slack's three characters escaped and no live mention or markdown link, and the email's Subject
 * with no encoded word, bidi control or line break of the sender's. In-process, with a real SMTP
 * server; tests/e2e/hostile-values.test.ts sends the same values through `npm start`.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { chatText, headerText, singleLine } from '../../src/proposal/notify/text.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { PARTNER, submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';
import {
  HOSTILE_COMPANIES,
  RAW_OVERRIDE,
  decodedSubject,
  expectInertChat,
  expectInertSubject,
} from '../helpers/hostile-values.ts';

describe('the escapes', () => {
  it('singleLine drops control and format characters: bidi overrides, isolates, zero-width, separators', () => {
    expect(singleLine('a\u202Egnp.exe\u202C b\u2066c\u2069 d\u200Be\u2028f\u2029g\uFEFF')).toBe(
      'a gnp.exe b c d e f g',
    );
  });

  it('headerText breaks an encoded word so no mail client decodes it', () => {
    expect(headerText('=?utf-8?q?=E2=80=AE?= Ltd')).toBe('= ?utf-8?q?=E2=80=AE?= Ltd');
    expect(headerText('ACME =?UTF-8?B?QQo=?=')).not.toContain('=?');
  });

  it('chatText escapes &, <, > and breaks mentions and markdown links', () => {
    expect(chatText('<!channel> & <@U123>')).toBe('&lt;!channel&gt; &amp; &lt;@\u2060U123&gt;');
    expect(chatText('<https://evil.example|Open the CRM record>')).toBe(
      '&lt;https://evil.example|Open the CRM record&gt;',
    );
    expect(chatText('[Open the CRM record](https://evil.example)')).toBe(
      '[Open the CRM record]\u2060(https://evil.example)',
    );
    expect(chatText('@channel @here ann@example.com')).toBe('@\u2060channel @\u2060here ann@\u2060example.com');
    // A joiner the sender sent is removed first, so it cannot undo one of ours.
    expect(chatText('&\u2060lt;')).toBe('&amp; lt;');
  });
});

describe('through the submit pipeline, to a real SMTP server and a chat stand-in', () => {
  const parts = useLoopbackParts();
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it.each([...HOSTILE_COMPANIES, RAW_OVERRIDE])('company %j arrives as text', async (company) => {
    const ctx = testCtx(parts.blobs.freshStore(), {
      env: {
        SMTP_URL: parts.smtp.url,
        MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
        NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook`,
      },
    });
    const reply = await submit(ctx, submitRequest({ company }), randomUUID());
    expect(reply.status).toBe(201);
    const [notice] = mailsTo(parts.smtp.messages, PARTNER.email);
    expectInertSubject(decodedSubject(notice!.raw), company);
    const { text } = JSON.parse(parts.chat.requests[0]!.body) as { text: string };
    expectInertChat(text, company);
  });
});
