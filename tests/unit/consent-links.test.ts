/** The confirmation email's "Yes, this was me" and "Not me" links, against real loopback Blobs, CRM and SMTP. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { recordKey, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { answerConsent } from '../../src/proposal/consent/answer.ts';
import { consentLinks, linkToken } from '../../src/proposal/notify/links.ts';
import { CONSENT_PAGES } from '../../src/contract/paths.ts';
import { readAll } from '../helpers/blobs.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { movableClock, submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
const CONSENT_SECRET = 'test-consent-secret-0123456789abcdef';

type Options = Partial<Ctx> & { env?: Record<string, string> };

function makeEnv(more: Record<string, string> = {}): Record<string, string> {
  return {
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
    CRM_WEBHOOK_SECRET: parts.webhookSecret,
    SMTP_URL: parts.smtp.url,
    MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
    CONSENT_SECRET,
    ...more,
  };
}

function makeDeps({ env = {}, ...overrides }: Options = {}, store = parts.blobs.freshStore()): Ctx {
  return testCtx(store, { env: makeEnv(env), ...overrides });
}

/** The plain-text part as the person reads it: quoted-printable undone. */
function bodyText(raw: string): string {
  const plain = raw.split(/\r?\n--/).find((part) => /content-type: text\/plain/i.test(part)) ?? raw;
  return plain
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The links of the confirmation email, by answer (of the last one sent to `address`). */
function emailedLinks(address: string) {
  const mail = mailsTo(parts.smtp.messages, address).at(-1);
  const urls = [...bodyText(mail!.raw).matchAll(/https?:\/\/\S+\/confirm\/\S+/g)].map((m) => new URL(m[0]));
  const by = (answer: string) => urls.find((url) => url.pathname === CONSENT_PAGES[answer as 'confirm' | 'deny'])!;
  const fields = (url: URL) => ({
    request_id: url.searchParams.get('request')!,
    token: url.searchParams.get('token')!,
  });
  return { confirm: fields(by('confirm')), deny: fields(by('deny')), urls };
}

async function stored(deps: Ctx): Promise<ProposalRecord[]> {
  return (await readAll(deps.store, 'requests/')) as ProposalRecord[];
}

describe('the confirmation links', () => {
  it('the email carries both links to the site, bound to the request; only their hashes are stored', async () => {
    const deps = makeDeps();
    const reply = await submit(deps, submitRequest({ email: 'links@example.com' }), randomUUID());
    expect(reply.status).toBe(201);
    const { confirm, deny, urls } = emailedLinks('links@example.com');
    const id = (reply.body as { request_id: string }).request_id;
    expect(urls.map((url) => url.pathname)).toEqual(['/confirm/yes', '/confirm/not-me']);
    expect(confirm.request_id).toBe(id);
    expect(confirm.token).not.toBe(deny.token);
    const [record] = await stored(deps);
    expect(JSON.stringify(record)).not.toContain(confirm.token);
    expect(JSON.stringify(record)).not.toContain(deny.token);
    expect(record!.consent_links).toEqual(consentLinks(CONSENT_SECRET, id, record!.received_at));
    expect(record!.consent.method).toBe('agent_asserted');
  });

  it('"Yes, this was me" makes the consent first_party through email_link and owes the CRM an update of the same request', async () => {
    const deps = makeDeps();
    await submit(deps, submitRequest({ email: 'yes@example.com' }), randomUUID());
    const { confirm } = emailedLinks('yes@example.com');
    const reply = await answerConsent(deps, 'confirm_request', { action: 'confirm_request', ...confirm });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'confirmed', request_id: confirm.request_id });
    const [record] = await stored(deps);
    expect(record!.consent).toMatchObject({
      method: 'email_link',
      vouched_by: 'first_party',
      initially: { method: 'agent_asserted', vouched_by: 'agent' },
    });
    expect(record!.consent.confirmed_at).toBeDefined();
    // The CRM had the request; it gets the update once, under an id of its own, the consent first_party.
    expect(record!.consent_update).toEqual({ state: 'sent' });
    const updates = parts.crm.requests.filter(
      (r) => r.headers['webhook-id'] === `${confirm.request_id}.consent-confirmed`,
    );
    expect(updates).toHaveLength(1);
    const sent = JSON.parse(updates[0]!.body) as {
      event: string;
      request_id: string;
      consent: Record<string, unknown>;
    };
    expect(sent).toMatchObject({ event: 'consent-confirmed', request_id: confirm.request_id });
    expect(sent.consent).toMatchObject({ method: 'email_link', vouched_by: 'first_party' });
    expect(parts.crm.requests.filter((r) => r.headers['webhook-id'] === confirm.request_id)).toHaveLength(1);
  });

  it('a reused, tampered or expired token is refused with its problem and changes nothing', async () => {
    const clock = movableClock();
    const deps = makeDeps({ now: clock.now, mono: clock.monotonic });
    await submit(deps, submitRequest({ email: 'tokens@example.com' }), randomUUID());
    const { confirm, deny } = emailedLinks('tokens@example.com');
    const before = await deps.store.read(recordKey(confirm.request_id));

    const tampered = { ...confirm, token: `${confirm.token.slice(0, -1)}${confirm.token.endsWith('A') ? 'B' : 'A'}` };
    const refusedTampered = await answerConsent(deps, 'confirm_request', { action: 'confirm_request', ...tampered });
    expect(refusedTampered.status).toBe(422);
    expect(refusedTampered.body).toMatchObject({ type: '#problem-confirmation-link-invalid' });
    // A token of the other answer is not this answer's.
    const swapped = await answerConsent(deps, 'confirm_request', { action: 'confirm_request', ...deny });
    expect(swapped.status).toBe(422);
    // Another request's id with this token.
    const otherId = { ...confirm, request_id: '01900000-0000-7000-8000-000000000000' };
    expect((await answerConsent(deps, 'confirm_request', { action: 'confirm_request', ...otherId })).status).toBe(422);

    clock.offsetMs = 24 * 3_600_000 + 1000;
    const expired = await answerConsent(deps, 'confirm_request', { action: 'confirm_request', ...confirm });
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ type: '#problem-confirmation-link-expired' });
    expect((await deps.store.read(recordKey(confirm.request_id)))!.value).toEqual(before!.value);

    clock.offsetMs = 0;
    expect((await answerConsent(deps, 'confirm_request', { action: 'confirm_request', ...confirm })).status).toBe(200);
    const after = await deps.store.read(recordKey(confirm.request_id));
    const reused = await answerConsent(deps, 'confirm_request', { action: 'confirm_request', ...confirm });
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ type: '#problem-confirmation-link-used' });
    expect((await deps.store.read(recordKey(confirm.request_id)))!.value).toEqual(after!.value);
  });

  it('"Not me" erases the request from the store and leaves only what is owed; its reuse hears "used"', async () => {
    const deps = makeDeps();
    await submit(deps, submitRequest({ email: 'notme@example.com' }), randomUUID());
    const { deny } = emailedLinks('notme@example.com');
    const reply = await answerConsent(deps, 'deny_request', { action: 'deny_request', ...deny });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'erased', request_id: deny.request_id });
    expect(await stored(deps)).toEqual([]);
    const [erasure] = (await readAll(deps.store, 'jobs/')) as Array<Record<string, unknown>>;
    expect(erasure).toMatchObject({
      kind: 'erasure',
      period: deny.request_id,
      erasure: { crm: 'webhook', deletion: 'sent' },
    });
    expect(JSON.stringify(erasure)).not.toContain('notme@example.com');
    // The CRM had it: it is sent the deletion once, with no request data; sales are told.
    const deletions = parts.crm.requests.filter((r) => r.headers['webhook-id'] === `${deny.request_id}.erased`);
    expect(deletions).toHaveLength(1);
    expect(JSON.parse(deletions[0]!.body)).toEqual({ event: 'erased', request_id: deny.request_id });
    const notices = parts.smtp.messages.filter((m) => m.raw.includes(`<erased-${deny.request_id}@`));
    expect(notices).toHaveLength(1);
    const again = await answerConsent(deps, 'deny_request', { action: 'deny_request', ...deny });
    expect(again.status).toBe(409);
  });

  it('without CONSENT_SECRET the email carries no links and the record no hashes', async () => {
    const { CONSENT_SECRET: _secret, ...env } = makeEnv();
    const deps = testCtx(parts.blobs.freshStore(), { env });
    await submit(deps, submitRequest({ email: 'nosecret@example.com' }), randomUUID());
    const [record] = await stored(deps);
    expect(record!.consent_links).toBeUndefined();
    expect(linkToken(CONSENT_SECRET, record!.request_id, 'confirm')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('a new CONSENT_SECRET', () => {
  const ROTATED = 'rotated-consent-secret-fedcba9876543210';

  it('revokes every link made under the old secret, and mints none the stored hashes do not name', async () => {
    const deps = makeDeps();
    await submit(deps, submitRequest({ email: 'rotated@example.com' }), randomUUID());
    const { confirm, deny } = emailedLinks('rotated@example.com');
    const before = await deps.store.read(recordKey(confirm.request_id));
    // The same store, read by an instance that has the new secret.
    const rotated = makeDeps({ env: { CONSENT_SECRET: ROTATED } }, deps.store);
    for (const [action, link] of [
      ['confirm_request', confirm],
      ['deny_request', deny],
    ] as const) {
      const refused = await answerConsent(rotated, action, { action, ...link });
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ type: '#problem-confirmation-link-invalid' });
    }
    // A token the new secret makes is not what was stored either: both must match.
    const minted = { ...confirm, token: linkToken(ROTATED, confirm.request_id, 'confirm') };
    expect((await answerConsent(rotated, 'confirm_request', { action: 'confirm_request', ...minted })).status).toBe(
      422,
    );
    expect((await deps.store.read(recordKey(confirm.request_id)))!.value).toEqual(before!.value);
  });

  it('sends an email owed at the rotation with links that match the new secret', async () => {
    const clock = movableClock();
    // The mail server is away when the request arrives: the confirmation email is owed.
    const away = makeDeps({ now: clock.now, mono: clock.monotonic, mailer: { send: async () => 'retry' } });
    const reply = await submit(away, submitRequest({ email: 'owed@example.com' }), randomUUID());
    expect(reply.body).toMatchObject({ status: 'received', confirmation_email: 'not_sent' });
    const id = (reply.body as { request_id: string }).request_id;
    const [owed] = await stored(away);
    expect(owed!.consent_links).toEqual(consentLinks(CONSENT_SECRET, id, owed!.received_at));

    // The secret changed meanwhile; the retry is due: the scheduled run sends it under the new secret.
    clock.offsetMs = 5 * 60_000;
    const rotated = makeDeps({ env: { CONSENT_SECRET: ROTATED }, now: clock.now, mono: clock.monotonic }, away.store);
    await runScheduled(rotated);
    const [sent] = await stored(rotated);
    expect(sent!.confirmation_email.state).toBe('sent');
    expect(sent!.consent_links).toEqual(consentLinks(ROTATED, id, sent!.received_at));
    const { confirm } = emailedLinks('owed@example.com');
    expect(confirm.token).toBe(linkToken(ROTATED, id, 'confirm'));
    const answered = await answerConsent(rotated, 'confirm_request', { action: 'confirm_request', ...confirm });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'confirmed', request_id: id });
  });
});

describe('CONSENT_CONFIRMATION=required', () => {
  const strict = ({ env = {}, ...overrides }: Options = {}) =>
    makeDeps({ env: { ...env, CONSENT_CONFIRMATION: 'required' }, ...overrides });

  it('holds a request the person has not confirmed: 202 awaiting_confirmation, the email sent, no CRM, no sales notice; confirming delivers it', async () => {
    const deps = strict();
    const reply = await submit(deps, submitRequest({ email: 'held@example.com' }), randomUUID());
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({ status: 'awaiting_confirmation', confirmation_email: 'sent' });
    const id = (reply.body as { request_id: string }).request_id;
    expect(parts.crm.requests.filter((r) => r.headers['webhook-id'] === id)).toHaveLength(0);
    const [held] = await stored(deps);
    expect(held!.hold).toBeDefined();
    expect(held!.notification?.email).toBe('owed');

    const { confirm } = emailedLinks('held@example.com');
    expect((await answerConsent(deps, 'confirm_request', { action: 'confirm_request', ...confirm })).status).toBe(200);
    // Released: delivered once with the confirmed consent; no separate update (the CRM never had it).
    const delivered = parts.crm.requests.filter((r) => r.headers['webhook-id'] === id);
    expect(delivered).toHaveLength(1);
    expect(JSON.parse(delivered[0]!.body)).toMatchObject({
      consent: { method: 'email_link', vouched_by: 'first_party' },
    });
    expect(parts.crm.requests.filter((r) => r.headers['webhook-id'] === `${id}.consent-confirmed`)).toHaveLength(0);
    const [released] = await stored(deps);
    expect(released!.hold).toBeUndefined();
    expect(released!.delivery.state).toBe('received');
  });

  it('a request still unconfirmed after 24 hours is deleted by the scheduled run, and never reached the CRM', async () => {
    const clock = movableClock();
    const deps = strict({ now: clock.now, mono: clock.monotonic });
    const reply = await submit(deps, submitRequest({ email: 'expires@example.com' }), randomUUID());
    const id = (reply.body as { request_id: string }).request_id;
    clock.offsetMs = 24 * 3_600_000 + 60_000;
    // A later invocation: its own time starts now.
    await runScheduled({ ...deps, ends: deps.mono() + deps.limitMs });
    expect(await stored(deps)).toEqual([]);
    expect(parts.crm.requests.filter((r) => r.headers['webhook-id'] === id)).toHaveLength(0);
  });
});
