/**
 * What the submit pipeline needs from outside (SubmitDeps, plain typed values), and the one adapter
 * that builds it from configuration variables (documented in .env.example).
 */
import { DEFAULT_CRM_TIMEOUT_MS, hubSpotAdapter, isAllowedEndpoint, webhookAdapter, type CrmAdapter } from './crm.ts';
import type { ConsentText, Partner } from './partner.ts';
import { logEvent } from './log.ts';
import { CONSENT_SECRET_VARIABLE, consentSecretFromEnv, MIN_CONSENT_SECRET_LENGTH } from './consent-links.ts';
import { createMailer } from './mailer.ts';
import type { CrmName } from '../../contract/submit-replies.ts';
import { RETENTION_DAYS_RANGE } from '../../contract/data-handling.ts';
import { SEND_LIMIT_RANGE, sendLimitsFromEnv, type SendLimits } from '../../contract/send-limits.ts';
import { ProposalsStore } from '../store/blobs.ts';
import { MAX_TIME_FACTOR } from '../store/limits.ts';

/** Reads one configuration variable, e.g. `readEnv` of contract/http.ts. */
export type EnvReader = (name: string) => string | undefined;

export type Mailer = ReturnType<typeof createMailer>;

/** Where the sales team is told of each request. */
export type NotifyConfig = { emailTo: string[]; chatUrl?: string };

/**
 * When the sweep runs and how it retries a request the CRM refused: at most one sweep per
 * `intervalMs` across all instances; backoff from `backoffBaseMs`, doubling per attempt up to an
 * hour; `failed` after `maxAgeMs` since receipt; requests older than `retentionMs` deleted (absent: kept).
 */
export interface RedeliveryPolicy {
  intervalMs: number;
  backoffBaseMs: number;
  maxAgeMs: number;
  retentionMs?: number;
}

/**
 * What the submit pipeline works with. `mailer` null: no SMTP configured; `crmTimeoutMs`: bound of one
 * CRM delivery; `inUseWaitMs`: how long a submit waits for another with the same key before 409;
 * `now`: the clock of stored times, leases and key expiry (tests move it).
 */
export interface SubmitDeps {
  store: ProposalsStore;
  crm: CrmAdapter;
  mailer: Mailer;
  partner: Partner;
  consent: ConsentText;
  crmTimeoutMs: number;
  notify: NotifyConfig;
  redelivery: RedeliveryPolicy;
  limits: SendLimits;
  inUseWaitMs: number;
  now: () => Date;
  /** The owner's clock for what is left of its lease (performance.now when absent; tests move it with `now`). */
  monotonic?: () => number;
  /** CONSENT_SECRET: keys the confirmation email's links (consent-links.ts); absent, the email carries none. */
  consentSecret?: string;
  /** CONSENT_CONFIRMATION=required (with CONSENT_SECRET): a request not first_party is held until the person confirms. */
  consentRequired?: boolean;
}

/** The consent links' secret (a short one is refused, never used) and the confirmation mode. */
function consentConfigFromEnv(readEnv: EnvReader): Pick<SubmitDeps, 'consentSecret' | 'consentRequired'> {
  const { secret, invalid } = consentSecretFromEnv(readEnv);
  if (invalid) {
    const reason = `must be at least ${MIN_CONSENT_SECRET_LENGTH} characters`;
    logEvent('config_invalid', { variable: CONSENT_SECRET_VARIABLE, reason });
  }
  const mode = (readEnv('CONSENT_CONFIRMATION') ?? '').trim().toLowerCase();
  if (mode !== '' && mode !== 'required' && mode !== 'optional')
    logEvent('config_invalid', { variable: 'CONSENT_CONFIRMATION', reason: 'must be "required" or "optional"' });
  // Without the links' secret nobody could confirm: nothing is held (and the log says why).
  if (mode === 'required' && secret === undefined)
    logEvent('config_invalid', {
      variable: 'CONSENT_CONFIRMATION',
      reason: `"required" needs ${CONSENT_SECRET_VARIABLE}`,
    });
  const required = mode === 'required' && secret !== undefined;
  return secret === undefined ? {} : { consentSecret: secret, consentRequired: required };
}

/** Upper bound for CRM_TIMEOUT_MS: a delivery must end well inside the 60 s function limit. */
const MAX_CRM_TIMEOUT_MS = 30_000;
const ENDPOINT_RULE = 'must be an https: URL (http: only on loopback)';

/** `store`: an opened store (the inbox script's); by default the site's, from the invocation's context. */
export function submitDepsFromEnv(
  readEnv: EnvReader,
  partner: Partner,
  consent: ConsentText,
  store?: ProposalsStore,
): SubmitDeps {
  const { limits, invalid } = sendLimitsFromEnv(readEnv);
  for (const variable of invalid) {
    logEvent('config_invalid', {
      variable,
      reason: `must be an integer from ${SEND_LIMIT_RANGE.min} to ${SEND_LIMIT_RANGE.max}`,
    });
  }
  const timeFactor = numberFromEnv(readEnv, 'STORE_TIMEOUT_FACTOR', 1, MAX_TIME_FACTOR, true) ?? 1;
  return {
    store: store ?? new ProposalsStore({ timeFactor }),
    crm: crmAdapterFromEnv(readEnv, partner),
    mailer: createMailer(readEnv),
    partner,
    consent,
    crmTimeoutMs: crmTimeoutFromEnv(readEnv),
    notify: notifyConfigFromEnv(readEnv, partner),
    redelivery: redeliveryPolicyFromEnv(readEnv),
    limits,
    inUseWaitMs: 5_000,
    now: () => new Date(),
    ...consentConfigFromEnv(readEnv),
  };
}

/** A variable from `min` to `max`; unset or unusable (logged) gives undefined. */
function numberFromEnv(readEnv: EnvReader, name: string, min: number, max: number, integer = false) {
  const raw = readEnv(name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if ((integer ? Number.isInteger(value) : Number.isFinite(value)) && value >= min && value <= max) return value;
  logEvent('config_invalid', {
    variable: name,
    reason: `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`,
  });
  return undefined;
}

export function crmTimeoutFromEnv(readEnv: EnvReader): number {
  return numberFromEnv(readEnv, 'CRM_TIMEOUT_MS', 1, MAX_CRM_TIMEOUT_MS, true) ?? DEFAULT_CRM_TIMEOUT_MS;
}

export function redeliveryPolicyFromEnv(readEnv: EnvReader): RedeliveryPolicy {
  const range = RETENTION_DAYS_RANGE;
  const ms = (name: string, unit: number, min: number, max: number) => {
    const value = numberFromEnv(readEnv, name, min, max);
    return value === undefined ? undefined : value * unit;
  };
  const maxAgeMs = ms('REDELIVERY_MAX_HOURS', 3_600_000, 0.0001, 8_760) ?? 72 * 3_600_000;
  let retentionMs = ms('RETENTION_DAYS', 86_400_000, range.min, range.max);
  if (retentionMs !== undefined && retentionMs < maxAgeMs) {
    // Retention must not end a request that redelivery may still complete: refused, so nothing is deleted.
    logEvent('config_invalid', {
      variable: 'RETENTION_DAYS',
      reason: `must cover REDELIVERY_MAX_HOURS (${maxAgeMs / 3_600_000} h); requests are kept until both agree`,
    });
    retentionMs = undefined;
  }
  return {
    intervalMs: ms('REDELIVERY_INTERVAL_SECONDS', 1000, 0.1, 86_400) ?? 60_000,
    backoffBaseMs: ms('REDELIVERY_BACKOFF_SECONDS', 1000, 0.1, 3_600) ?? 60_000,
    maxAgeMs,
    ...(retentionMs !== undefined && { retentionMs }),
  };
}

/**
 * The sales team's addresses, used when a mailer is configured (NOTIFY_EMAIL, comma-separated; default: the
 * partner's contact email), and a chat webhook (NOTIFY_WEBHOOK_URL: Slack, Mattermost, Google Chat, Teams
 * workflows accept {"text": ...}).
 */
function notifyConfigFromEnv(readEnv: EnvReader, partner: Pick<Partner, 'email'>): NotifyConfig {
  const emailTo = (readEnv('NOTIFY_EMAIL') ?? partner.email)
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
  const chatUrl = readEnv('NOTIFY_WEBHOOK_URL');
  if (chatUrl === undefined) return { emailTo };
  if (isAllowedEndpoint(chatUrl)) return { emailTo, chatUrl };
  logEvent('config_invalid', { variable: 'NOTIFY_WEBHOOK_URL', reason: ENDPOINT_RULE });
  return { emailTo };
}

/**
 * Stands in for a CRM whose settings are missing or invalid. Requests stay stored as pending
 * (nothing is lost) and every attempt logs which variables to fix, never any request data.
 */
function misconfigured(name: CrmName, variables: string[], reason: string): CrmAdapter {
  return {
    name,
    misconfigured: { variables, reason },
    deliver: async () => {
      logEvent('crm_misconfigured', { crm: name, variable: variables.join(', '), reason });
      return { ok: false, kind: 'misconfigured' };
    },
  };
}

/** The variables of `names` that are not set, or a misconfigured adapter naming them all. */
function unset(env: EnvReader, name: CrmName, names: string[]): CrmAdapter | undefined {
  const missing = names.filter((variable) => env(variable) === undefined);
  return missing.length === 0 ? undefined : misconfigured(name, missing, 'missing');
}

/** CRM_PROVIDER: unset or "inbox" (default), "webhook" or "hubspot". */
export function crmAdapterFromEnv(readEnv: EnvReader, partner: Partner): CrmAdapter {
  const provider = readEnv('CRM_PROVIDER')?.trim().toLowerCase() ?? 'inbox';
  switch (provider) {
    case 'inbox':
      // The Blobs record itself is the system of record: the write that stores it delivers it.
      return { name: 'inbox', storesRecord: true, deliver: async () => ({ ok: true }) };
    case 'webhook':
      return webhookFromEnv(readEnv);
    case 'hubspot':
      return hubSpotFromEnv(readEnv, partner);
    default:
      // Keep requests (as pending, in the inbox) rather than accept them into a CRM nobody chose.
      return misconfigured('inbox', ['CRM_PROVIDER'], 'must be inbox, webhook or hubspot');
  }
}

function webhookFromEnv(env: EnvReader): CrmAdapter {
  const missing = unset(env, 'webhook', ['CRM_WEBHOOK_URL', 'CRM_WEBHOOK_SECRET']);
  if (missing) return missing;
  const url = env('CRM_WEBHOOK_URL')!;
  if (!isAllowedEndpoint(url)) return misconfigured('webhook', ['CRM_WEBHOOK_URL'], ENDPOINT_RULE);
  const secret = env('CRM_WEBHOOK_SECRET')!;
  if (!secret.startsWith('whsec_')) {
    return misconfigured('webhook', ['CRM_WEBHOOK_SECRET'], 'must have the form whsec_<base64>');
  }
  try {
    return webhookAdapter({ url, secret });
  } catch {
    return misconfigured('webhook', ['CRM_WEBHOOK_SECRET'], 'the part after whsec_ is not valid base64');
  }
}

function hubSpotFromEnv(env: EnvReader, partner: Partner): CrmAdapter {
  const missing = unset(env, 'hubspot', ['HUBSPOT_PORTAL_ID', 'HUBSPOT_FORM_GUID', 'HUBSPOT_ACCESS_TOKEN']);
  if (missing) return missing;
  const portalId = env('HUBSPOT_PORTAL_ID')!;
  if (!/^\d+$/.test(portalId)) return misconfigured('hubspot', ['HUBSPOT_PORTAL_ID'], 'must be digits');
  const formGuid = env('HUBSPOT_FORM_GUID')!;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(formGuid)) {
    return misconfigured('hubspot', ['HUBSPOT_FORM_GUID'], 'must be a form GUID');
  }
  const accessToken = env('HUBSPOT_ACCESS_TOKEN')!;
  const apiBase = env('HUBSPOT_API_BASE') ?? 'https://api.hsforms.com';
  if (!isAllowedEndpoint(apiBase)) return misconfigured('hubspot', ['HUBSPOT_API_BASE'], ENDPOINT_RULE);
  return hubSpotAdapter({ portalId, formGuid, accessToken, apiBase }, partner);
}
