/**
 * No mail cannon: confirmation emails and sales notices stay within their limits, counted
 * exactly by the storage module, while every request is still stored and delivered to the CRM.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countedDomain, countedMailbox, sendLimitsFromEnv } from '../../src/contract/send-limits.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import type { Validators } from '../../src/contract/requests.ts';
import type { RequestSource } from '../../src/contract/source.ts';
import { createIntake } from '../../src/proposal/actions/pipeline.ts';
import { readConfig } from '../../src/proposal/config.ts';
import { clientNetwork, clientNetworkKey } from '../../src/proposal/limits/client-network.ts';
import { addressPlace } from '../../src/proposal/limits/send-gates.ts';
import { fillTimeMs, FORM_LIFETIME_MS, observedSignals } from '../../src/proposal/limits/spam-signals.ts';
import { DAY_MS, tally, windowOf } from '../../src/proposal/store/tally.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';
import { OK } from '../helpers/crm-server.ts';
import { readAll } from '../helpers/blobs.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { CONSENT, envOf, PARTNER, submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';

const parts = useLoopbackParts();
beforeEach(() => {
  parts.crm.behave(OK);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const NETWORK_SECRET_VARIABLE = 'CLIENT_NETWORK_SECRET';
/** The key every test here hashes networks with, as a deployment's CLIENT_NETWORK_SECRET would. */
const SECRET = 's'.repeat(44);
const networkKey = (ip: string | undefined) => clientNetworkKey(ip, SECRET);

function makeDeps(env: Record<string, string> = {}): Ctx {
  const values = {
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
    CRM_WEBHOOK_SECRET: parts.webhookSecret,
    SMTP_URL: parts.smtp.url,
    MAIL_FROM: 'no-reply@kestrel.example',
    ...env,
  };
  return testCtx(parts.blobs.freshStore(), { env: values });
}

const bodyOf = (reply: { body: unknown }) => reply.body as { request_id: string; confirmation_email: string };
const records = async (deps: Ctx) => (await readAll(deps.store, 'requests/')) as ProposalRecord[];
const notices = () => mailsTo(parts.smtp.messages, PARTNER.email);
const subjectOf = (raw: string) => /^Subject: (.*)$/im.exec(raw)?.[1] ?? '';

describe('the limits as configured', () => {
  it('counts one mailbox however it is spelled: case, +tag, IDN domain, and Gmail dots and googlemail.com', () => {
    expect(countedMailbox(' Ann+news@Example.COM ')).toBe('ann@example.com');
    expect(countedMailbox('ann@example.com')).toBe('ann@example.com');
    expect(countedMailbox('+x@example.com')).toBe('+x@example.com');
    expect(countedMailbox('ann@BÜCHER.example')).toBe('ann@xn--bcher-kva.example');
    expect(countedMailbox('ann@xn--bcher-kva.example')).toBe('ann@xn--bcher-kva.example');
    for (const spelling of ['j.doe@gmail.com', 'jdoe@gmail.com', 'j.d.o.e@googlemail.com', 'J.Doe+cv@GoogleMail.com'])
      expect(countedMailbox(spelling)).toBe('jdoe@gmail.com');
    // Dots matter elsewhere: only providers that document ignoring them are folded.
    expect(countedMailbox('j.doe@example.com')).toBe('j.doe@example.com');
  });

  it('keys a client by its network: an IPv4 address, an IPv6 /48, a mapped IPv4 as the IPv4; only a short hash', () => {
    expect(clientNetwork('192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1::/48');
    expect(networkKey('2001:db8:1:2::9')).toBe(networkKey('2001:db8:1:2:ffff::1'));
    expect(networkKey('2001:db8:2:2::9')).not.toBe(networkKey('2001:db8:1:2::9'));
    expect(networkKey('192.0.2.7')).toMatch(/^[0-9a-f]{16}$/);
    expect(networkKey(undefined)).toBeUndefined();
    expect(networkKey('not an address')).toBeUndefined();
  });

  it('counts one IPv6 subscriber as one client: the /64s of a home /56 and the /56s of a /48 share one key', () => {
    const home = ['2001:db8:aa:100::1', '2001:db8:aa:101::1', '2001:db8:aa:1ff::1', '2001:db8:aa:1ff:ffff::2'];
    const business = ['2001:db8:aa::5', '2001:db8:aa:ff00::5', '2001:db8:aa:ffff:ffff:ffff:ffff:ffff'];
    const keys = new Set([...home, ...business].map((ip) => networkKey(ip)));
    expect(keys.size).toBe(1);
    expect(networkKey('2001:db8:ab::1')).not.toBe(networkKey('2001:db8:aa::1'));
  });

  it("keys the stored network hash with the deployment's secret: without it, nobody can hash all addresses and compare", () => {
    const first = 'a'.repeat(32);
    const second = 'b'.repeat(32);
    // The same client gets the same key under one secret, a different one under another.
    expect(clientNetworkKey('192.0.2.7', first)).toBe(clientNetworkKey('192.0.2.7', first));
    expect(clientNetworkKey('192.0.2.7', first)).not.toBe(clientNetworkKey('192.0.2.7', second));
    // Not the public, unkeyed hash that anyone can compute for every IPv4 address.
    const unkeyed = createHash('sha256').update('proposal-send-limit:192.0.2.7').digest('hex').slice(0, 16);
    expect(clientNetworkKey('192.0.2.7', first)).not.toBe(unkeyed);
    // Nor is the public fallback that applies without a secret.
    const fallback = readConfig(envOf({})).config.networkSecret;
    expect(clientNetworkKey('192.0.2.7', fallback)).not.toBe(unkeyed);
  });

  it('reads CLIENT_NETWORK_SECRET: a missing or short one falls back to a public key and says which', () => {
    // Deployed (URL names a public host): there a missing secret is a misconfiguration.
    const read = (value: string | undefined) => {
      const { config, problems } = readConfig(
        envOf({ URL: 'https://kestrel.example', ...(value !== undefined && { [NETWORK_SECRET_VARIABLE]: value }) }),
      );
      return { secret: config.networkSecret, problem: problems.find((p) => p.variable === NETWORK_SECRET_VARIABLE) };
    };
    const strong = 'x'.repeat(44);
    expect(read(strong)).toEqual({ secret: strong, problem: undefined });
    expect(read(undefined).problem).toMatchObject({ missing: true });
    expect(read('  ').problem).toMatchObject({ missing: true });
    expect(read('changeme').problem).toMatchObject({ reason: expect.stringContaining('at least 32 characters') });
    expect(read(undefined).secret).toBe(read('short').secret);
  });

  it('on a deployed site without CLIENT_NETWORK_SECRET logs config_missing once and still keys every request', () => {
    const knowledge = {
      partner: { name: PARTNER.name, described_as: PARTNER.describedAs, email: PARTNER.email },
      urls: { proposal_page: PARTNER.proposalUrl },
      consent: CONSENT,
    } as unknown as Knowledge;
    // The instance reads its configuration once, as the function's first invocation does.
    const intake = createIntake(
      knowledge,
      {} as Validators,
      envOf({ URL: 'https://kestrel.example', [NETWORK_SECRET_VARIABLE]: '' }),
    );
    expect(clientNetworkKey('192.0.2.7', intake.config.networkSecret)).toMatch(/^[0-9a-f]{16}$/);
    expect(clientNetworkKey('192.0.2.8', intake.config.networkSecret)).toMatch(/^[0-9a-f]{16}$/);
    const logged = vi.mocked(console.error).mock.calls.map(([line]) => String(line));
    expect(logged.filter((line) => line.includes('"config_missing"'))).toHaveLength(1);
    expect(logged.find((line) => line.includes(NETWORK_SECRET_VARIABLE))).toBeDefined();
  });

  it('counts Fastmail subdomain addresses and Yahoo disposable addresses as the mailbox they reach', () => {
    for (const spelling of [
      'jdoe@fastmail.com',
      'cv@jdoe.fastmail.com',
      'Shop@JDoe.FastMail.com',
      'jdoe+x@fastmail.com',
    ])
      expect(countedMailbox(spelling)).toBe('jdoe@fastmail.com');
    expect(countedMailbox('news@joe-citizen.fastmail.fm')).toBe('joe_citizen@fastmail.fm');
    expect(countedMailbox('joe_citizen@fastmail.fm')).toBe('joe_citizen@fastmail.fm');
    // A disposable address is its base's mailbox, not the account that may be called `base`.
    expect(countedMailbox('jdoe-shop@yahoo.com')).toBe('jdoe-@yahoo.com');
    expect(countedMailbox('JDoe-news@Yahoo.com')).toBe('jdoe-@yahoo.com');
    expect(countedMailbox('jdoe@yahoo.com')).toBe('jdoe@yahoo.com');
    // Elsewhere a hyphen and a subdomain are part of the address.
    expect(countedMailbox('ann-lee@example.com')).toBe('ann-lee@example.com');
    expect(countedMailbox('cv@jdoe.example.com')).toBe('cv@jdoe.example.com');
  });

  it('counts a recipient domain without its subdomains, and not at all for a shared provider', () => {
    expect(countedDomain('a@acme.example')).toBe('acme.example');
    expect(countedDomain('b@Sales.EU.Acme.example')).toBe('acme.example');
    expect(countedDomain('c@ann.acme.co.uk')).toBe('acme.co.uk');
    expect(countedDomain('d@acme.de')).toBe('acme.de');
    expect(countedDomain('e@mail.acme.de')).toBe('acme.de');
    expect(countedDomain('f@agency.gouv.fr')).toBe('agency.gouv.fr');
    for (const shared of ['x@gmail.com', 'x.y@googlemail.com', 'x@outlook.com', 'x-1@yahoo.com', 'a@jdoe.fastmail.com'])
      expect(countedDomain(shared)).toBeUndefined();
  });

  it('takes a fill time only when it is believable: not from the future, not older than the form lives', () => {
    const now = Date.parse('2026-11-24T10:00:00Z');
    expect(fillTimeMs(now - 60_000, now)).toBe(60_000);
    expect(fillTimeMs(now + 60_000, now)).toBeUndefined();
    expect(fillTimeMs(now - FORM_LIFETIME_MS - 1, now)).toBeUndefined();
    const at = (started: number) =>
      observedSignals(submitRequest({ form_started_at: started }), new Date(now).toISOString());
    expect(at(now - 60_000)).toMatchObject({ form_checks: 'passed', fill_seconds: 60 });
    expect(at(now + 3_600_000)).toEqual({ form_checks: 'not_checked', links: 0 });
    expect(at(now - 30 * 86_400_000)).toEqual({ form_checks: 'not_checked', links: 0 });
  });

  it('reads the three variables, and keeps the default for an unusable value', () => {
    expect(sendLimitsFromEnv(() => undefined)).toEqual({
      limits: { perAddress: 3, perClient: 20, perDomain: 10, perDay: 500, noticesPerHour: 20 },
      invalid: [],
    });
    const read = (name: string) =>
      ({ CONFIRMATION_LIMIT_PER_ADDRESS: '5', CONFIRMATION_LIMIT_PER_DAY: 'lots', NOTIFY_LIMIT_PER_HOUR: '0' })[name];
    expect(sendLimitsFromEnv(read)).toEqual({
      limits: { perAddress: 5, perClient: 20, perDomain: 10, perDay: 500, noticesPerHour: 20 },
      invalid: ['CONFIRMATION_LIMIT_PER_DAY', 'NOTIFY_LIMIT_PER_HOUR'],
    });
  });
});

describe('tallies (storage module)', () => {
  it('gives 20 simultaneous events 20 different places, and a repeated event its old place', async () => {
    const store = parts.blobs.freshStore();
    const now = new Date();
    const window = windowOf('address:ann@example.com', now, DAY_MS);
    const ids = Array.from({ length: 20 }, () => randomUUID());
    const places = await Promise.all(ids.map((id) => tally(store, window, id, { now })));
    expect([...places].sort((a, b) => a - b)).toEqual(ids.map((_, i) => i + 1));
    const again = await tally(store, window, ids[4]!, { now });
    expect(again).toBe(places[4]);
  });

  it("places a mailbox's request among its requests of the last 24 hours, across midnight", async () => {
    const store = parts.blobs.freshStore();
    const day = 86_400_000;
    const t0 = new Date('2026-11-24T10:00:00Z');
    const place = (id: string, at: number) =>
      addressPlace({ store, now: () => new Date(at) }, {
        request_id: id,
        contact: { email: 'a@example.com' },
      } as ProposalRecord);
    await place('one', t0.getTime());
    expect(await place('two', t0.getTime() + 1000)).toBe(2);
    expect(await place('three', t0.getTime() + day + 1)).toBe(2);
  });
});

describe('confirmation emails per address', () => {
  it('ten submits for one address (any case, any +tag): three emails, ten stored, ten CRM deliveries', async () => {
    const deps = makeDeps();
    const addresses = ['ann@example.com', 'Ann@Example.com', 'ann+1@example.com', 'ANN+x@example.com'];
    const replies = [];
    for (let i = 0; i < 10; i++) {
      const email = addresses[i % addresses.length]!;
      const started = Date.now() - 60_000;
      replies.push(
        await submit(deps, submitRequest({ email, company: `Company ${i}`, form_started_at: started }), randomUUID()),
      );
    }
    expect(replies.map((r) => r.status)).toEqual(Array<number>(10).fill(201));
    expect(replies.map((r) => bodyOf(r).confirmation_email)).toEqual([
      ...Array<string>(3).fill('sent'),
      ...Array<string>(7).fill('limited'),
    ]);
    expect(
      replies
        .slice(3)
        .every((r) => /No confirmation email was sent/.test(String((r.body as { message: string }).message))),
    ).toBe(true);
    const confirmations = parts.smtp.messages.filter((m) =>
      m.to.some((to) => countedMailbox(to) === 'ann@example.com'),
    );
    expect(confirmations).toHaveLength(3);
    const stored = await records(deps);
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.signals?.address_requests_24h).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(stored.filter((r) => r.confirmation_email.limit === 'per_address')).toHaveLength(7);
    expect(parts.crm.requests).toHaveLength(10);
    // The CRM gets the signals with the record.
    const delivered = JSON.parse(parts.crm.requests[9]!.body) as ProposalRecord;
    expect(delivered.signals).toMatchObject({ links: 0, address_requests_24h: 10, form_checks: 'passed' });
  });

  it('twenty simultaneous submits for a fresh address: at most three emails, twenty stored', async () => {
    const deps = makeDeps();
    const email = `burst-${randomUUID()}@example.com`;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit(deps, submitRequest({ email, company: `C${i}` }), randomUUID())),
    );
    expect(replies.filter((r) => bodyOf(r).confirmation_email === 'sent')).toHaveLength(3);
    expect(mailsTo(parts.smtp.messages, email)).toHaveLength(3);
    expect(await records(deps)).toHaveLength(20);
    expect(parts.crm.requests).toHaveLength(20);
  });
});

describe('confirmation emails per mailbox and per client', () => {
  it('ten spellings of one Gmail mailbox: three emails in all, each to the address as it was sent', async () => {
    const deps = makeDeps();
    const name = `jdoe${randomUUID().slice(0, 8)}`;
    const dotted = (n: string) => n.split('').join('.');
    const spellings = [
      `${name}@gmail.com`,
      `${dotted(name)}@gmail.com`,
      `${name}@googlemail.com`,
      `${dotted(name)}@googlemail.com`,
      `${name.toUpperCase()}@GMAIL.COM`,
      `${name}+cv@gmail.com`,
      `${name.slice(0, 2)}.${name.slice(2)}+x@googlemail.com`,
      `${name}+a.b@GoogleMail.com`,
      `${dotted(name).toUpperCase()}@gmail.com`,
      `${name.slice(0, 1)}.${name.slice(1)}@GMail.com`,
    ];
    const replies = [];
    for (const email of spellings)
      replies.push(bodyOf(await submit(deps, submitRequest({ email }), randomUUID())).confirmation_email);
    expect(replies).toEqual([...Array<string>(3).fill('sent'), ...Array<string>(7).fill('limited')]);
    const sent = parts.smtp.messages.filter((m) => m.to.some((to) => countedMailbox(to) === `${name}@gmail.com`));
    expect(sent.map((m) => m.to[0])).toEqual(spellings.slice(0, 3));
  });

  it('one client sending fast reaches its own limit, while a second client still gets its confirmation', async () => {
    const deps = makeDeps({ CONFIRMATION_LIMIT_PER_CLIENT: '4' });
    const fast: RequestSource = { channel: 'http-api', network: networkKey('198.51.100.23') };
    const other: RequestSource = { channel: 'http-api', network: networkKey('2001:db8:77::5') };
    const fastReplies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        submit(deps, submitRequest({ email: `fast-${i}-${randomUUID()}@example.com` }), randomUUID(), { source: fast }),
      ),
    );
    const states = fastReplies.map((r) => bodyOf(r).confirmation_email);
    expect(states.filter((s) => s === 'sent')).toHaveLength(4);
    expect(states.filter((s) => s === 'limited')).toHaveLength(6);
    const second = await submit(deps, submitRequest({ email: `other-${randomUUID()}@example.com` }), randomUUID(), {
      source: other,
    });
    expect(bodyOf(second).confirmation_email).toBe('sent');
    // The reply says `limited` and nothing about which limit: the record alone knows.
    const limited = fastReplies.find((r) => bodyOf(r).confirmation_email === 'limited')!;
    expect(JSON.stringify(limited.body)).not.toMatch(/per_client|client|site|address/i);
    expect((await records(deps)).filter((r) => r.confirmation_email.limit === 'per_client')).toHaveLength(6);
  });
});

describe('one subscriber, one catch-all domain', () => {
  it('ten requests from ten /64s of one home /56 meet one client limit', async () => {
    const deps = makeDeps({ CONFIRMATION_LIMIT_PER_CLIENT: '4' });
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const source: RequestSource = { channel: 'http-api', network: networkKey(`2001:db8:aa:1${i}::1`) };
        return submit(deps, submitRequest({ email: `v6-${i}-${randomUUID()}@example.com` }), randomUUID(), { source });
      }),
    );
    const states = replies.map((r) => bodyOf(r).confirmation_email);
    expect(states.filter((s) => s === 'sent')).toHaveLength(4);
    expect((await records(deps)).filter((r) => r.confirmation_email.limit === 'per_client')).toHaveLength(6);
  });

  it('a Fastmail mailbox that used its three confirmations gets none more through its subdomain spellings', async () => {
    const deps = makeDeps();
    const name = `jdoe${randomUUID().slice(0, 8)}`;
    const spellings = [
      ...Array<string>(3).fill(`${name}@fastmail.com`),
      ...['cv', 'shop', 'news', 'a', 'b'].map((tag) => `${tag}@${name}.fastmail.com`),
    ];
    const states = [];
    for (const email of spellings)
      states.push(bodyOf(await submit(deps, submitRequest({ email }), randomUUID())).confirmation_email);
    expect(states).toEqual([...Array<string>(3).fill('sent'), ...Array<string>(5).fill('limited')]);
  });

  it('a catch-all domain gets CONFIRMATION_LIMIT_PER_DOMAIN confirmations, its subdomains included; gmail.com is exempt', async () => {
    const deps = makeDeps({ CONFIRMATION_LIMIT_PER_DOMAIN: '4' });
    const domain = `catchall-${randomUUID().slice(0, 8)}.example`;
    const states = [];
    for (let i = 0; i < 8; i++) {
      const email = i % 2 === 0 ? `x${i}@${domain}` : `x${i}@team${i}.${domain}`;
      states.push(bodyOf(await submit(deps, submitRequest({ email }), randomUUID())).confirmation_email);
    }
    expect(states).toEqual([...Array<string>(4).fill('sent'), ...Array<string>(4).fill('limited')]);
    expect((await records(deps)).filter((r) => r.confirmation_email.limit === 'per_domain')).toHaveLength(4);
    const gmail = [];
    for (let i = 0; i < 6; i++)
      gmail.push(
        bodyOf(await submit(deps, submitRequest({ email: `p${i}${randomUUID().slice(0, 6)}@gmail.com` }), randomUUID()))
          .confirmation_email,
      );
    expect(gmail).toEqual(Array<string>(6).fill('sent'));
  });
});

describe('the site-wide daily limit', () => {
  it('stops confirmations past CONFIRMATION_LIMIT_PER_DAY and alerts sales once', async () => {
    const deps = makeDeps({ CONFIRMATION_LIMIT_PER_DAY: '2' });
    const replies = [];
    for (let i = 0; i < 5; i++) {
      replies.push(await submit(deps, submitRequest({ email: `p${i}@example.com` }), randomUUID()));
    }
    expect(replies.map((r) => bodyOf(r).confirmation_email)).toEqual(['sent', 'sent', 'limited', 'limited', 'limited']);
    // The day's alert is a job of its own (created once), which the scheduled run completes.
    await runScheduled(deps);
    await runScheduled(deps);
    const alerts = notices().filter((m) => /Confirmation emails stopped/.test(subjectOf(m.raw)));
    expect(alerts).toHaveLength(1);
    expect((await records(deps)).filter((r) => r.confirmation_email.limit === 'per_day')).toHaveLength(3);
    expect(parts.crm.requests).toHaveLength(5);
  });
});

describe('the hourly notice limit and its digest', () => {
  it('past NOTIFY_LIMIT_PER_HOUR one digest after the hour says how many more and how many look suspect', async () => {
    const deps = makeDeps({ NOTIFY_LIMIT_PER_HOUR: '2' });
    const at = new Date('2026-11-24T14:10:00Z');
    const clock = { now: at };
    const timed = { ...deps, now: () => clock.now };
    for (let i = 0; i < 5; i++) {
      const linked = i === 3 ? { blocker: 'See https://spam.example and www.spam.example' } : {};
      const reply = await submit(
        timed,
        submitRequest({ email: `n${i}@example.com`, company: `N${i}`, ...linked }),
        randomUUID(),
      );
      expect(reply.status).toBe(201);
    }
    const individual = notices().filter((m) => /New proposal request/.test(subjectOf(m.raw)));
    expect(individual).toHaveLength(2);
    const stored = await records(deps);
    expect(stored.filter((r) => r.notification?.email === 'in_digest')).toHaveLength(3);
    expect(stored.find((r) => r.contact.company === 'N3')?.signals?.links).toBe(2);
    // The hour's digest is a job of its own, owed once, not work of the request that came third.
    expect(await deps.store.read('jobs/2026-11-24T14-digest')).not.toBeNull();
    expect(await deps.store.listWhile('jobs/')).toHaveLength(1);

    // Within the hour the digest is not due; the scheduled run leaves it owed.
    await runScheduled(timed);
    expect(notices().filter((m) => /more proposal requests/.test(subjectOf(m.raw)))).toHaveLength(0);

    clock.now = new Date('2026-11-24T15:00:05Z');
    await runScheduled(timed);
    await runScheduled(timed);
    const digests = notices().filter((m) => /more proposal requests/.test(subjectOf(m.raw)));
    expect(digests).toHaveLength(1);
    expect(subjectOf(digests[0]!.raw)).toContain('3 more proposal requests');
    const text = digests[0]!.raw.replace(/=\r?\n/g, '');
    expect(text).toContain('1 of them carry links in their text');
    expect(text).toContain('npm run inbox');
    expect(parts.crm.requests).toHaveLength(5);
  });

  it('a digest owed by a request whose CRM delivery is backing off is sent when the hour ends, not after the backoff', async () => {
    // An hour's backoff step: the CRM is not tried again before 15:10.
    const deps = makeDeps({ NOTIFY_LIMIT_PER_HOUR: '1', REDELIVERY_BACKOFF_SECONDS: '3600' });
    parts.crm.behave({ kind: 'status', status: 500 });
    const clock = { now: new Date('2026-11-24T14:10:00Z') };
    const timed = { ...deps, now: () => clock.now };
    for (const company of ['First', 'Second']) {
      const reply = await submit(timed, submitRequest({ company }), randomUUID());
      expect(reply.status).toBe(202);
    }
    const second = (await records(deps)).find((r) => r.contact.company === 'Second');
    expect(second?.delivery.state).toBe('pending');
    expect(Date.parse(second?.work?.['crm']?.next_at ?? '')).toBeGreaterThan(Date.parse('2026-11-24T15:05:00Z'));
    const attempts = parts.crm.requests.length;

    clock.now = new Date('2026-11-24T15:00:05Z');
    const report = await runScheduled(timed);
    expect(notices().filter((m) => /more proposal requests/.test(subjectOf(m.raw)))).toHaveLength(1);
    // The delivery's backoff still holds: only the digest was due.
    expect(parts.crm.requests).toHaveLength(attempts);
    expect(report).toMatchObject({ due: 1, done: 1 });
  });
});
