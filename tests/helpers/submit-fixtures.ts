/** Shared inputs of the submit tests: a valid request, the partner, consent text, env maps, and the owed-work context they make. */
import { randomBytes } from 'node:crypto';
import type { SubmitRequest } from '../../src/contract/requests.ts';
import { readConfig, type EnvReader } from '../../src/proposal/config.ts';
import type { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import type { ConsentText, Partner } from '../../src/proposal/notify/partner.ts';
import { crmAdapter } from '../../src/proposal/submit/crm.ts';
import { createMailer } from '../../src/proposal/notify/mail.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';
import { submitProposal, type SubmitMeta } from '../../src/proposal/submit/submit.ts';

export const PARTNER: Partner = {
  name: 'Kestrel Cloud',
  email: 'hello@kestrel.example',
  proposalUrl: 'https://kestrel.example/proposal',
  describedAs: 'an independent cloud consulting and delivery partner',
  choiceLabels: {
    'cloud-engineering': 'Cloud engineering',
    'defined-project': 'Defined project',
    '11-50': '11-50 employees',
    'not-sure': 'Not sure yet',
  },
  replyTime: 'within one business day',
  signatory: { name: 'Mara Lind', role: 'Head of Partnerships' },
};

export const CONSENT: ConsentText = {
  text: 'I agree that Kestrel Cloud stores this request and contacts me about it.',
  version: '2026-11-01',
};

export const IDENTITY = {
  name: 'Kestrel Cloud',
  cloud_provider: 'AWS',
  cloud_provider_full_name: 'Amazon Web Services',
};

export function submitRequest(overrides: Partial<SubmitRequest> = {}): SubmitRequest {
  return {
    action: 'submit',
    consent: true,
    name: 'Ann Example',
    email: 'ann@example.com',
    company: 'Example GmbH',
    role: 'CTO',
    business_outcome: 'Launch the product in the EU by spring.',
    current_environment: 'Prototype on a single VM.',
    blocker: 'No infrastructure as code.',
    timeline: 'Three months',
    constraints: 'GDPR, fixed budget.',
    engagement_model: 'defined-project',
    question: 'How do we get production ready?',
    industry: 'Retail',
    company_size: '11-50',
    primary_need: 'cloud-engineering',
    website: '',
    form_started_at: 1_790_000_000_000,
    ...overrides,
  };
}

/** An EnvReader over a plain map; empty strings read as unset, like readEnv. */
export function envOf(values: Record<string, string>): EnvReader {
  return (name) => (values[name] === '' ? undefined : values[name]);
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The owed-work context of the submit tests: the configuration read from `env` (as deployed), the
 * test's store, an invocation of `limitMs` starting now, then typed `overrides` (a clock, a CRM stand-in).
 */
export function testCtx(
  store: ProposalsStore,
  { env = {}, limitMs = 60_000, ...overrides }: Partial<Ctx> & { env?: Record<string, string> } = {},
): Ctx {
  const { config } = readConfig(envOf(env));
  const mono = overrides.mono ?? (() => performance.now());
  return {
    store,
    retry: config.retry,
    now: () => new Date(),
    mono,
    ends: mono() + limitMs,
    limitMs,
    config,
    partner: PARTNER,
    consentText: CONSENT,
    crm: crmAdapter(config.crm, PARTNER),
    mailer: createMailer(config.mail),
    ...overrides,
  };
}

/** A submit as a door makes it, unsigned unless `meta` says otherwise; without `later`, it waits for everything owed. */
export const submit = (ctx: Ctx, request: SubmitRequest, key: string, meta: Partial<SubmitMeta> = {}) =>
  submitProposal(ctx, request, key, { identity: async () => undefined, ...meta });

/** A clock the test moves: real time plus `offsetMs`, on the wall and on the owners' monotonic clock alike. */
export function movableClock() {
  const clock = {
    offsetMs: 0,
    now: () => new Date(Date.now() + clock.offsetMs),
    monotonic: () => performance.now() + clock.offsetMs,
  };
  return clock;
}

/** The same context as a new invocation whose time starts now: a context's `ends` is fixed when it is made. */
export const invocation = (ctx: Ctx): Ctx => ({ ...ctx, ends: ctx.mono() + ctx.limitMs });

/** What a scheduled run's summary says time deleted (absent when the run had no time left for it). */
export const deletedBy = (report: object, what: 'requests' | 'tallies' | 'grants' | 'nonces') =>
  (report as Record<string, number | undefined>)[`${what}_deleted`];
