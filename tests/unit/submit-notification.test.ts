/**
 * The sales team's notice of each new request: once, by email and chat, never failing the submit.
 * The email carries the lead, Reply-To the prospect; the chat message no personal details (issue 45).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordKey, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { OK } from '../helpers/crm-server.ts';
import { rawStore } from '../helpers/blobs.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { freePort } from '../../scripts/free-port.ts';
import { headerLines, mailsTo } from '../helpers/smtp.ts';
import { PARTNER, submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
beforeEach(() => {
  parts.crm.behave(OK);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const MAIL = { SMTP_URL: '', MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>' };

function makeDeps(env: Record<string, string>, store = parts.blobs.freshStore()): Ctx {
  return testCtx(store, { env: { ...MAIL, SMTP_URL: parts.smtp.url, ...env } });
}

async function stored(deps: Ctx, id: unknown): Promise<ProposalRecord> {
  return (await rawStore(deps.store).get(recordKey(String(id)), { type: 'json' })) as ProposalRecord;
}

const notices = () => mailsTo(parts.smtp.messages, PARTNER.email);
const due = async (deps: Ctx) => (await rawStore(deps.store).list({ prefix: 'due/' })).blobs;
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describe('notice of a new request (inbox CRM)', () => {
  it('emails the partner contact address when NOTIFY_EMAIL is unset: the lead, its need by name, outcome, timeline, id, CRM state', async () => {
    const deps = makeDeps({});
    const key = randomUUID();
    const reply = await submit(deps, submitRequest(), key);
    const id = String((reply.body as { request_id: string }).request_id);
    expect(reply.status).toBe(201);

    expect(notices()).toHaveLength(1);
    const [mail] = notices();
    expect(mail?.to).toEqual([PARTNER.email]);
    const text = decoded(mail?.raw ?? '');
    for (const expected of [
      'Company: Example GmbH',
      'Primary need: Cloud engineering',
      'Business outcome: Launch the product in the EU by spring.',
      'Timeline: Three months',
      `Reference: request ${id}`,
      "It is stored in the site's inbox",
    ]) {
      expect(text).toContain(expected);
    }
    // The lead itself, so sales can answer it: the person's address and every answer, and Reply-To them.
    expect(text).toContain('Email: ann@example.com');
    expect(text).toContain('GDPR, fixed budget.');
    expect(new Map(headerLines(mail?.raw ?? '')).get('reply-to')).toBe('ann@example.com');
    expect((await stored(deps, id)).notification).toMatchObject({ email: 'sent', chat: 'not_configured' });
    // Sent at the first attempt: no retry bookkeeping left.
    expect((await stored(deps, id)).work ?? {}).toEqual({});

    // A replay notifies nobody again.
    const replay = await submit(deps, submitRequest(), key);
    expect(replay.headers?.['Idempotent-Replayed']).toBe('true');
    expect(notices()).toHaveLength(1);
  });

  it('emails every address of NOTIFY_EMAIL and posts {"text"} to NOTIFY_WEBHOOK_URL', async () => {
    const deps = makeDeps({
      NOTIFY_EMAIL: 'sales@kestrel.example, lead@kestrel.example',
      NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook`,
    });
    const key = randomUUID();
    const reply = await submit(deps, submitRequest(), key);
    await submit(deps, submitRequest(), key);
    expect(reply.status).toBe(201);
    const sales = parts.smtp.messages.filter((m) => m.to.includes('sales@kestrel.example'));
    expect(sales).toHaveLength(1);
    expect(sales[0]?.to.sort()).toEqual(['lead@kestrel.example', 'sales@kestrel.example']);
    expect(mailsTo(parts.smtp.messages, PARTNER.email)).toHaveLength(0);
    expect(parts.chat.requests).toHaveLength(1);
    const posted = JSON.parse(parts.chat.requests[0]?.body ?? '{}') as { text?: string };
    expect(Object.keys(posted)).toEqual(['text']);
    expect(posted.text).toContain('New proposal request from Example GmbH');
    expect(posted.text).toContain((reply.body as { request_id: string }).request_id);
    // Chat channels are read by many: no name, address or phone.
    expect(posted.text).not.toMatch(/Ann Example|ann@example\.com/);
  });

  it('without SMTP only the chat message goes, and the record says the email is not configured', async () => {
    const deps = makeDeps({ SMTP_URL: '', MAIL_FROM: '', NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook` });
    const reply = await submit(deps, submitRequest(), randomUUID());
    expect(parts.smtp.messages).toHaveLength(0);
    expect(parts.chat.requests).toHaveLength(1);
    expect((await stored(deps, (reply.body as { request_id: string }).request_id)).notification).toMatchObject({
      email: 'not_configured',
      chat: 'sent',
    });
  });

  it('no channel at all: nothing owed, nothing left open', async () => {
    const deps = makeDeps({ SMTP_URL: '', MAIL_FROM: '' });
    await submit(deps, submitRequest(), randomUUID());
    expect(await due(deps)).toHaveLength(0);
  });

  it('cannot inject a header or a line through the company name', async () => {
    const deps = makeDeps({ NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook` });
    await submit(
      deps,
      submitRequest({ company: 'Evil\r\nBcc: victim@evil.example\r\nReference: forged' }),
      randomUUID(),
    );
    const [mail] = notices();
    const names = headerLines(mail?.raw ?? '').map(([name]) => name);
    expect(names).not.toContain('bcc');
    expect(mail?.to).toEqual([PARTNER.email]);
    const text = decoded(mail?.raw ?? '');
    expect(text.match(/^Reference: /gm)).toHaveLength(1);
    const posted = (JSON.parse(parts.chat.requests[0]?.body ?? '{}') as { text: string }).text;
    // The chat message is one line: the forged one is part of it.
    expect(posted).not.toMatch(/[\r\n]/);
  });

  it('a pending request is notified too, saying the CRM does not have it yet', async () => {
    parts.crm.behave({ kind: 'status', status: 503 });
    const deps = makeDeps({
      CRM_PROVIDER: 'webhook',
      CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
      CRM_WEBHOOK_SECRET: parts.webhookSecret,
      CRM_TIMEOUT_MS: '300',
    });
    const reply = await submit(deps, submitRequest(), randomUUID());
    expect(reply.status).toBe(202);
    expect(notices()).toHaveLength(1);
    expect(decoded(notices()[0]?.raw ?? '')).toContain('does not have it yet');
  });
});

describe('a failing notice channel', () => {
  it('SMTP down: the submit still answers 201, the notice stays owed, and the scheduled run sends it once', async () => {
    const dead = `smtp://127.0.0.1:${await freePort()}`;
    const deps = makeDeps({ SMTP_URL: dead });
    const reply = await submit(deps, submitRequest(), randomUUID());
    expect(reply.status).toBe(201);
    const id = (reply.body as { request_id: string }).request_id;
    expect(await stored(deps, id)).toMatchObject({
      notification: { email: 'owed' },
      work: { notice_email: { attempts: 1 } },
    });
    expect(await due(deps)).toHaveLength(1);

    // After the notice's backoff (each step has its own).
    const healed = { ...makeDeps({}, deps.store), now: () => new Date(Date.now() + 3_600_000) };
    const report = await runScheduled(healed);
    expect(report).toMatchObject({ due: 1, done: 1 });
    expect(notices()).toHaveLength(1);
    // The confirmation email was owed as well (same dead server) and went with it.
    expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);
    expect((await stored(deps, id)).notification).toMatchObject({ email: 'sent' });
    expect((await stored(deps, id)).work ?? {}).toEqual({});
    expect(await due(deps)).toHaveLength(0);

    await runScheduled(healed);
    expect(notices()).toHaveLength(1);
  });

  it('chat webhook failing with 500: retried by the scheduled run, posted once', async () => {
    parts.chat.behave({ kind: 'status', status: 500 });
    const deps = makeDeps({ NOTIFY_WEBHOOK_URL: `${parts.chat.url}/hook` });
    const reply = await submit(deps, submitRequest(), randomUUID());
    expect(reply.status).toBe(201);
    const id = (reply.body as { request_id: string }).request_id;
    expect((await stored(deps, id)).notification).toMatchObject({ email: 'sent', chat: 'owed' });

    parts.chat.behave(OK);
    parts.chat.requests.length = 0;
    const later = { ...deps, now: () => new Date(Date.now() + 3_600_000) };
    await runScheduled(later);
    await runScheduled(later);
    expect(parts.chat.requests).toHaveLength(1);
    expect(notices()).toHaveLength(1);
    expect((await stored(deps, id)).notification).toMatchObject({ email: 'sent', chat: 'sent' });
  });
});
