/** The confirmation email's "Yes, this was me" and "Not me" links, against real loopback Blobs, CRM and SMTP. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SubmitDeps } from '../../src/proposal/submit/config.ts';
import { submitProposal } from '../../src/proposal/submit/index.ts';
import { recordKey, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { runSweep } from '../../src/proposal/submit/sweep.ts';
import { answerConsent } from '../../src/proposal/consent/answer.ts';
import { consentLinks, linkToken } from '../../src/proposal/submit/consent-links.ts';
import { CONSENT_PAGES } from '../../src/contract/paths.ts';
import { readAll } from '../helpers/blobs.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { movableClock, submitRequest, testSubmitDeps } from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
const CONSENT_SECRET = 'test-consent-secret-0123456789abcdef';

function makeDeps(overrides: Partial<SubmitDeps> = {}): SubmitDeps {
  const env = {
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
    CRM_WEBHOOK_SECRET: parts.webhookSecret,
    SMTP_URL: parts.smtp.url,
    MAIL_FROM: 'Kestrel Cloud <no-reply@kestrel.example>',
    CONSENT_SECRET,
  };
  return testSubmitDeps(parts.blobs.freshStore(), { env, ...overrides });
}

/** The plain-text body as the person reads it: quoted-printable undone. */
const bodyText = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The links of the confirmation email, by answer. */
function emailedLinks(address: string) {
  const [mail] = mailsTo(parts.smtp.messages, address);
  const urls = [...bodyText(mail!.raw).matchAll(/https?:\/\/\S+\/confirm\/\S+/g)].map((m) => new URL(m[0]));
  const by = (answer: string) => urls.find((url) => url.pathname === CONSENT_PAGES[answer as 'confirm' | 'deny'])!;
  const fields = (url: URL) => ({
    request_id: url.searchParams.get('request')!,
    token: url.searchParams.get('token')!,
  });
  return { confirm: fields(by('confirm')), deny: fields(by('deny')), urls };
}

async function stored(deps: SubmitDeps): Promise<ProposalRecord[]> {
  return (await readAll(deps.store, 'requests/')) as ProposalRecord[];
}

describe('the confirmation links', () => {
  it('the email carries both links to the site, bound to the request; only their hashes are stored', async () => {
    const deps = makeDeps();
    const reply = await submitProposal(submitRequest({ email: 'links@example.com' }), randomUUID(), deps);
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
    await submitProposal(submitRequest({ email: 'yes@example.com' }), randomUUID(), deps);
    const { confirm } = emailedLinks('yes@example.com');
    const reply = await answerConsent('confirm_request', { action: 'confirm_request', ...confirm }, deps);
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
    expect(record!.consent_update).toMatchObject({ event: `${confirm.request_id}.consent-confirmed`, state: 'sent' });
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
    const deps = makeDeps({ now: clock.now });
    await submitProposal(submitRequest({ email: 'tokens@example.com' }), randomUUID(), deps);
    const { confirm, deny } = emailedLinks('tokens@example.com');
    const before = await deps.store.read(recordKey(confirm.request_id));

    const tampered = { ...confirm, token: `${confirm.token.slice(0, -1)}${confirm.token.endsWith('A') ? 'B' : 'A'}` };
    const refusedTampered = await answerConsent('confirm_request', { action: 'confirm_request', ...tampered }, deps);
    expect(refusedTampered.status).toBe(422);
    expect(refusedTampered.body).toMatchObject({ type: '#problem-confirmation-link-invalid' });
    // A token of the other answer is not this answer's.
    const swapped = await answerConsent('confirm_request', { action: 'confirm_request', ...deny }, deps);
    expect(swapped.status).toBe(422);
    // Another request's id with this token.
    const otherId = { ...confirm, request_id: '01900000-0000-7000-8000-000000000000' };
    expect((await answerConsent('confirm_request', { action: 'confirm_request', ...otherId }, deps)).status).toBe(422);

    clock.offsetMs = 24 * 3_600_000 + 1000;
    const expired = await answerConsent('confirm_request', { action: 'confirm_request', ...confirm }, deps);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ type: '#problem-confirmation-link-expired' });
    expect((await deps.store.read(recordKey(confirm.request_id)))!.value).toEqual(before!.value);

    clock.offsetMs = 0;
    expect((await answerConsent('confirm_request', { action: 'confirm_request', ...confirm }, deps)).status).toBe(200);
    const after = await deps.store.read(recordKey(confirm.request_id));
    const reused = await answerConsent('confirm_request', { action: 'confirm_request', ...confirm }, deps);
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ type: '#problem-confirmation-link-used' });
    expect((await deps.store.read(recordKey(confirm.request_id)))!.value).toEqual(after!.value);
  });

  it('"Not me" erases the request from the store and leaves only what is owed; its reuse hears "used"', async () => {
    const deps = makeDeps();
    await submitProposal(submitRequest({ email: 'notme@example.com' }), randomUUID(), deps);
    const { deny } = emailedLinks('notme@example.com');
    const reply = await answerConsent('deny_request', { action: 'deny_request', ...deny }, deps);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ status: 'erased', request_id: deny.request_id });
    expect(await stored(deps)).toEqual([]);
    const [erasure] = (await readAll(deps.store, 'jobs/')) as Array<Record<string, unknown>>;
    expect(erasure).toMatchObject({
      kind: 'erasure',
      period: deny.request_id,
      erasure: { deletion: { event: `${deny.request_id}.erased`, state: 'sent', attempts: 1 } },
    });
    expect(JSON.stringify(erasure)).not.toContain('notme@example.com');
    // The CRM had it: it is sent the deletion once, with no request data; sales are told.
    const deletions = parts.crm.requests.filter((r) => r.headers['webhook-id'] === `${deny.request_id}.erased`);
    expect(deletions).toHaveLength(1);
    expect(JSON.parse(deletions[0]!.body)).toEqual({ event: 'erased', request_id: deny.request_id });
    const notices = parts.smtp.messages.filter((m) => m.raw.includes(`<erased-${deny.request_id}@`));
    expect(notices).toHaveLength(1);
    const again = await answerConsent('deny_request', { action: 'deny_request', ...deny }, deps);
    expect(again.status).toBe(409);
  });

  it('without CONSENT_SECRET the email carries no links and the record no hashes', async () => {
    const { consentSecret: _secret, ...deps } = makeDeps();
    await submitProposal(submitRequest({ email: 'nosecret@example.com' }), randomUUID(), deps);
    const [record] = await stored(deps);
    expect(record!.consent_links).toBeUndefined();
    expect(linkToken(CONSENT_SECRET, record!.request_id, 'confirm')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('CONSENT_CONFIRMATION=required', () => {
  const strict = (overrides: Partial<SubmitDeps> = {}) => ({ ...makeDeps(overrides), consentRequired: true });

  it('holds a request the person has not confirmed: 202 awaiting_confirmation, the email sent, no CRM, no sales notice; confirming delivers it', async () => {
    const deps = strict();
    const reply = await submitProposal(submitRequest({ email: 'held@example.com' }), randomUUID(), deps);
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({ status: 'awaiting_confirmation', confirmation_email: 'sent' });
    const id = (reply.body as { request_id: string }).request_id;
    expect(parts.crm.requests.filter((r) => r.headers['webhook-id'] === id)).toHaveLength(0);
    const [held] = await stored(deps);
    expect(held!.hold).toBeDefined();
    expect(held!.notification?.email).toBe('owed');

    const { confirm } = emailedLinks('held@example.com');
    expect((await answerConsent('confirm_request', { action: 'confirm_request', ...confirm }, deps)).status).toBe(200);
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

  it('a request still unconfirmed after 24 hours is deleted by the sweep, and never reached the CRM', async () => {
    const clock = movableClock();
    const deps = strict({ now: clock.now });
    const reply = await submitProposal(submitRequest({ email: 'expires@example.com' }), randomUUID(), deps);
    const id = (reply.body as { request_id: string }).request_id;
    clock.offsetMs = 24 * 3_600_000 + 60_000;
    await runSweep(deps);
    expect(await stored(deps)).toEqual([]);
    expect(parts.crm.requests.filter((r) => r.headers['webhook-id'] === id)).toHaveLength(0);
  });
});
