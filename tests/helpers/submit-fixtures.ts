/** Shared inputs of the submit tests: a valid request, the partner, consent text, env maps, and their SubmitDeps. */
import { randomBytes } from 'node:crypto';
import type { SubmitRequest } from '../../src/contract/requests.ts';
import { submitDepsFromEnv, type EnvReader, type SubmitDeps } from '../../src/proposal/submit/config.ts';
import type { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import type { ConsentText, Partner } from '../../src/proposal/submit/partner.ts';

export const PARTNER: Partner = {
  name: 'Kestrel Cloud',
  email: 'hello@kestrel.example',
  proposalUrl: 'https://kestrel.example/proposal',
  describedAs: 'an independent cloud consulting and delivery partner',
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
 * The one SubmitDeps of the submit tests: the configuration adapter over `env` (as deployed), the
 * test's store, then typed `overrides` (a clock, a CRM stand-in, shorter waits).
 */
export function testSubmitDeps(
  store: ProposalsStore,
  { env = {}, ...overrides }: Partial<SubmitDeps> & { env?: Record<string, string> } = {},
): SubmitDeps {
  return { ...submitDepsFromEnv(envOf(env), PARTNER, CONSENT, store), ...overrides };
}

/** A clock the test moves: real time plus `offsetMs`, on the wall and on the owners' monotonic clock alike. */
export function movableClock() {
  const clock = {
    offsetMs: 0,
    now: () => new Date(Date.now() + clock.offsetMs),
    monotonic: () => performance.now() + clock.offsetMs,
  };
  return clock;
}
