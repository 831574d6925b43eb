/**
 * Strict consent (CONSENT_CONFIRMATION) against real loopback Blobs, CRM and SMTP (issue 44): a held
 * request whose confirmation email the send limits stop is released and delivered, never erased
 * unasked (observation 3); a misspelled mode or a short secret holds rather than delivers, and a
 * secret nobody can confirm with owes sales a configuration alert (observation 5); `npm run inbox`
 * shows a held request as held (observation 8).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listText, selectRecords, toCsv } from '../../scripts/inbox/export.ts';
import { MIN_SECRET_LENGTH, readConfig } from '../../src/proposal/config.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { readAll } from '../helpers/blobs.ts';
import { OK } from '../helpers/crm-server.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import {
  envOf,
  invocation,
  movableClock,
  PARTNER,
  submit,
  submitRequest,
  testCtx,
} from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
const CONSENT_SECRET = 'strict-mode-consent-secret-0123456789';

beforeEach(() => {
  parts.crm.behave(OK);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

function strictCtx(env: Record<string, string> = {}, overrides: Partial<Ctx> = {}): Ctx {
  return testCtx(parts.blobs.freshStore(), {
    env: {
      CRM_PROVIDER: 'webhook',
      CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
      CRM_WEBHOOK_SECRET: parts.webhookSecret,
      SMTP_URL: parts.smtp.url,
      MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
      CONSENT_SECRET,
      CONSENT_CONFIRMATION: 'required',
      ...env,
    },
    ...overrides,
  });
}

const idOf = (reply: { body: unknown }) => (reply.body as { request_id: string }).request_id;
const records = async (ctx: Ctx) => (await readAll(ctx.store, 'requests/')) as ProposalRecord[];
const recordOf = async (ctx: Ctx, id: string) => (await records(ctx)).find((r) => r.request_id === id);
const delivered = (id: string) => parts.crm.requests.filter((r) => r.headers['webhook-id'] === id);
const subjectOf = (raw: string) => /^Subject: (.*)$/im.exec(raw)?.[1] ?? '';
const salesMail = (pattern: RegExp) =>
  mailsTo(parts.smtp.messages, PARTNER.email).filter((m) => pattern.test(subjectOf(m.raw)));

describe('observation 3: strict mode and spent send limits', () => {
  it('a held request whose confirmation is limited (three fakes named the mailbox) is released and delivered, not erased after 24 h', async () => {
    const clock = movableClock();
    const ctx = strictCtx({}, { now: clock.now, mono: clock.monotonic });
    const email = `victim-${randomUUID().slice(0, 8)}@example.com`;
    // Three fakes naming the person spend their mailbox's limit: each is held, its confirmation sent.
    for (let i = 0; i < 3; i++) {
      const fake = await submit(ctx, submitRequest({ email, company: `Fake ${i}` }), randomUUID());
      expect(fake.body).toMatchObject({ status: 'awaiting_confirmation', confirmation_email: 'sent' });
    }
    expect(mailsTo(parts.smtp.messages, email)).toHaveLength(3);
    expect(parts.crm.requests).toHaveLength(0);

    // The person's own request: no email can ask them, so it goes on as optional mode would.
    const real = await submit(ctx, submitRequest({ email, company: 'Real Lead GmbH' }), randomUUID());
    const id = idOf(real);
    // Released, no longer awaiting the person: pending until the scheduled run delivers it.
    expect(real.status).toBe(202);
    expect(real.body).toMatchObject({ status: 'pending' });
    expect(mailsTo(parts.smtp.messages, email)).toHaveLength(3);
    await runScheduled(invocation(ctx));

    const record = (await recordOf(ctx, id))!;
    expect(record.hold).toBeUndefined();
    expect(record.confirmation_email).toMatchObject({ state: 'limited', limit: 'per_address' });
    expect(record.consent.released_unconfirmed).toBe('limit');
    expect(record.delivery.state).toBe('received');
    // The CRM has it, saying it was released unconfirmed; sales were told of it one by one.
    expect(delivered(id)).toHaveLength(1);
    expect(JSON.parse(delivered(id)[0]!.body)).toMatchObject({ consent: { released_unconfirmed: 'limit' } });
    const notices = salesMail(/New proposal request/);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.raw).toContain('Real Lead GmbH');
    // Only the real lead reached anyone: the fakes stay held.
    expect(parts.crm.requests).toHaveLength(1);

    // A day and more later the scheduled run erases the unconfirmed fakes, never the released lead.
    clock.offsetMs = 24 * 3_600_000 + 5 * 60_000;
    await runScheduled(invocation(ctx));
    await runScheduled(invocation(ctx));
    const left = await records(ctx);
    expect(left.map((r) => r.contact.company)).toEqual(['Real Lead GmbH']);
    expect(left[0]!.request_id).toBe(id);
  });
  // The reply says what the record says (replyFor): a released request's pending reply names its email as it is.
  it('the reply of a released request says its confirmation was limited, as its record does', async () => {
    const ctx = strictCtx();
    const email = `reply-${randomUUID().slice(0, 8)}@example.com`;
    for (let i = 0; i < 3; i++) await submit(ctx, submitRequest({ email, company: `Fake ${i}` }), randomUUID());
    const real = await submit(ctx, submitRequest({ email, company: 'Real Lead GmbH' }), randomUUID());
    expect((await recordOf(ctx, idOf(real)))!.confirmation_email.state).toBe('limited');
    expect(real.body).toMatchObject({ confirmation_email: 'limited' });
    expect(String((real.body as { message: string }).message)).not.toMatch(/confirmation email follows/);
  });
});

describe('observation 5: strict mode fails closed', () => {
  it('reads a misspelled CONSENT_CONFIRMATION as strict, and says so; a secret one character short as none', () => {
    for (const mode of ['requried', 'true', 'REQUIRED ', 'yes']) {
      const { config, problems } = readConfig(envOf({ CONSENT_CONFIRMATION: mode, CONSENT_SECRET }));
      expect(config.consent, mode).toMatchObject({ strict: true, secret: CONSENT_SECRET });
      if (mode.trim().toLowerCase() !== 'required')
        expect(
          problems.map((p) => p.variable),
          mode,
        ).toContain('CONSENT_CONFIRMATION');
    }
    for (const mode of [undefined, 'optional', ' Optional ']) {
      const { config } = readConfig(envOf({ ...(mode !== undefined && { CONSENT_CONFIRMATION: mode }) }));
      expect(config.consent.strict, String(mode)).toBe(false);
    }
    const short = 's'.repeat(MIN_SECRET_LENGTH - 1);
    const { config, problems } = readConfig(envOf({ CONSENT_CONFIRMATION: 'required', CONSENT_SECRET: short }));
    expect(config.consent).toEqual({ strict: true });
    expect(problems.filter((p) => p.variable === 'CONSENT_SECRET').length).toBeGreaterThan(0);
  });

  for (const mode of ['requried', 'true']) {
    it(`CONSENT_CONFIRMATION=${mode}: the request is held and its confirmation sent; nothing reaches the CRM or sales`, async () => {
      const ctx = strictCtx({ CONSENT_CONFIRMATION: mode });
      const email = `mode-${randomUUID().slice(0, 8)}@example.com`;
      const reply = await submit(ctx, submitRequest({ email }), randomUUID());
      expect(reply.status).toBe(202);
      expect(reply.body).toMatchObject({ status: 'awaiting_confirmation', confirmation_email: 'sent' });
      await runScheduled(invocation(ctx));
      const record = (await recordOf(ctx, idOf(reply)))!;
      expect(record.hold).toBeDefined();
      expect(record.delivery.state).toBe('pending');
      expect(mailsTo(parts.smtp.messages, email)).toHaveLength(1);
      expect(parts.crm.requests).toHaveLength(0);
      expect(salesMail(/New proposal request/)).toHaveLength(0);
    });
  }

  it('a CONSENT_SECRET one character too short with strict mode: held, no link sent, a config job tells sales', async () => {
    const clock = movableClock();
    const ctx = strictCtx(
      { CONSENT_SECRET: 'k'.repeat(MIN_SECRET_LENGTH - 1) },
      { now: clock.now, mono: clock.monotonic },
    );
    const email = `short-${randomUUID().slice(0, 8)}@example.com`;
    const reply = await submit(ctx, submitRequest({ email }), randomUUID());
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({ status: 'awaiting_confirmation' });
    const day = clock.now().toISOString().slice(0, 10);
    expect(await ctx.store.read(`jobs/${day}-config`)).toMatchObject({
      value: { kind: 'config', variable: 'CONSENT_SECRET' },
    });

    await runScheduled(invocation(ctx));
    const alerts = salesMail(/misconfigured: requests are held \(CONSENT_SECRET\)/);
    expect(alerts).toHaveLength(1);
    // Held, asked of nobody (no link could be confirmed), delivered to no one.
    const record = (await recordOf(ctx, idOf(reply)))!;
    expect(record.hold).toBeDefined();
    expect(record.consent.released_unconfirmed).toBeUndefined();
    expect(mailsTo(parts.smtp.messages, email)).toHaveLength(0);
    expect(parts.crm.requests).toHaveLength(0);
    expect(salesMail(/New proposal request/)).toHaveLength(0);

    // A second held request the same day owes no second alert.
    await submit(invocation(ctx), submitRequest({ email: `second-${email}` }), randomUUID());
    clock.offsetMs += 10 * 60_000;
    await runScheduled(invocation(ctx));
    expect(salesMail(/misconfigured/)).toHaveLength(1);
    expect(parts.crm.requests).toHaveLength(0);
  });
});

describe('observation 8: npm run inbox and held requests', () => {
  it('lists a held request as held, selects it by --status held, and exports its status as held', async () => {
    const ctx = strictCtx();
    const held = idOf(await submit(ctx, submitRequest({ email: 'held-inbox@example.com', company: 'Held Co' }), randomUUID())); // prettier-ignore
    const optional = testCtx(ctx.store, {
      env: {
        CRM_PROVIDER: 'webhook',
        CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
        CRM_WEBHOOK_SECRET: parts.webhookSecret,
      },
    });
    await submit(optional, submitRequest({ email: 'plain-inbox@example.com', company: 'Plain Co' }), randomUUID());

    const values = await readAll(ctx.store, 'requests/');
    const all = selectRecords(values);
    expect(all).toHaveLength(2);
    const list = listText(all);
    expect(list).toContain("2 requests (0 pending, 1 received, 1 held for the person's confirmation)");
    const heldLines = list.split('\n').slice(list.split('\n').findIndex((line) => line.includes('Held Co')));
    expect(heldLines[2]).toMatch(/^ {4}held \(webhook\), email sent, /);
    expect(heldLines[2]).toContain(held);

    expect(selectRecords(values, 'held').map((r) => r.request_id)).toEqual([held]);
    expect(selectRecords(values, 'pending')).toEqual([]);
    const [header, row] = toCsv(selectRecords(values, 'held'))
      .split('\r\n')
      .map((line): string[] => line.match(/"(?:[^"]|"")*"/g) ?? []);
    expect(row![header!.indexOf('"status"')]).toBe('"held"');
  });
});
