/**
 * "Not me" tells sales within NOTIFY_LIMIT_PER_HOUR (issue 44, observation 8): a withdrawal counts
 * against the hour's notices like a request, and past the limit it goes into the hour's digest.
 * Real loopback Blobs, CRM and SMTP; a clock the test sets.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerConsent } from '../../src/proposal/consent/answer.ts';
import { CONSENT_PAGES } from '../../src/contract/paths.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { readAll } from '../helpers/blobs.ts';
import { OK } from '../helpers/crm-server.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { headerLines, mailsTo, readableMail } from '../helpers/smtp.ts';
import { PARTNER, submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();

beforeEach(() => {
  parts.crm.behave(OK);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The plain-text part as the person reads it: quoted-printable undone. */
function bodyText(raw: string): string {
  const plain = raw.split(/\r?\n--/).find((part) => /content-type: text\/plain/i.test(part)) ?? raw;
  return plain
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The "Not me" link of the confirmation email sent to `address`, as the page posts it. */
function denyOf(address: string) {
  const mail = mailsTo(parts.smtp.messages, address).at(-1)!;
  const url = [...bodyText(mail.raw).matchAll(/https?:\/\/\S+\/confirm\/\S+/g)]
    .map((m) => new URL(m[0]))
    .find((u) => u.pathname === CONSENT_PAGES.deny)!;
  return {
    action: 'deny_request' as const,
    request_id: url.searchParams.get('request')!,
    token: url.searchParams.get('token')!,
  };
}

/** The Subject header as a mail client shows it: unfolded, its RFC 2047 encoded words decoded. */
function subjectOf(raw: string): string {
  const value = headerLines(raw).find(([name]) => name === 'subject')?.[1] ?? '';
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, how: string, text: string) =>
      how.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}
const sales = (pattern: RegExp) =>
  mailsTo(parts.smtp.messages, PARTNER.email).filter((m) => pattern.test(subjectOf(m.raw)));

describe('"Not me" and NOTIFY_LIMIT_PER_HOUR', () => {
  it("past the hour's limit a withdrawal goes into the hour's digest, not a message of its own", async () => {
    const clock = { now: new Date('2026-11-24T14:10:00Z') };
    const ctx: Ctx = testCtx(parts.blobs.freshStore(), {
      env: {
        CRM_PROVIDER: 'webhook',
        CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
        CRM_WEBHOOK_SECRET: parts.webhookSecret,
        SMTP_URL: parts.smtp.url,
        MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
        CONSENT_SECRET: 'withdrawal-notice-secret-0123456789abcdef',
        NOTIFY_LIMIT_PER_HOUR: '3',
      },
      now: () => clock.now,
    });
    const addresses = [`first-${randomUUID()}@example.com`, `second-${randomUUID()}@example.com`];
    for (const [i, email] of addresses.entries()) {
      const reply = await submit(ctx, submitRequest({ email, company: `Withdrawn ${i}` }), randomUUID());
      expect(reply.status).toBe(201);
    }
    // Two requests announced one by one: two of the hour's three notices.
    expect(sales(/New proposal request/)).toHaveLength(2);

    // Both owners of the addresses press "Not me" within the hour: the first is the hour's third
    // notice, told one by one; the second is past the limit.
    clock.now = new Date('2026-11-24T14:20:00Z');
    for (const email of addresses) {
      const answered = await answerConsent(ctx, 'deny_request', denyOf(email));
      expect(answered.status).toBe(200);
      expect(answered.body).toMatchObject({ status: 'erased' });
    }
    await runScheduled({ ...ctx, ends: ctx.mono() + ctx.limitMs });
    const withdrawn = sales(/withdrawn: "Not me"/);
    expect(withdrawn).toHaveLength(1);
    expect(subjectOf(withdrawn[0]!.raw)).toContain('Withdrawn 0');
    expect(await readAll(ctx.store, 'requests/')).toEqual([]);
    // The hour's digest is owed, and not sent before the hour ends.
    expect(await ctx.store.read('jobs/2026-11-24T14-digest')).not.toBeNull();
    expect(sales(/more proposal requests/)).toHaveLength(0);

    clock.now = new Date('2026-11-24T15:00:05Z');
    await runScheduled({ ...ctx, ends: ctx.mono() + ctx.limitMs });
    await runScheduled({ ...ctx, ends: ctx.mono() + ctx.limitMs });
    const digests = sales(/more proposal requests/);
    expect(digests).toHaveLength(1);
    expect(subjectOf(digests[0]!.raw)).toContain('1 more proposal requests');
    expect(readableMail(digests[0]!.raw).replace(/\s+/g, ' ')).toContain('0 more, and 1 "Not me" withdrawals');
    // Still exactly one withdrawal told on its own.
    expect(sales(/withdrawn: "Not me"/)).toHaveLength(1);
  });
});
