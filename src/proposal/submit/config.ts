/** Builds SubmitDeps from configuration variables; the names are documented in .env.example. */
import { DEFAULT_CRM_TIMEOUT_MS, type CrmAdapter } from './crm/adapter.ts';
import { hubSpotAdapterFromEnv } from './crm/hubspot.ts';
import { inboxAdapter } from './crm/inbox.ts';
import { misconfiguredAdapter } from './crm/misconfigured.ts';
import { webhookAdapterFromEnv } from './crm/webhook.ts';
import type { SubmitDeps } from './deps.ts';
import type { EnvReader } from './env.ts';
import type { ConsentText, Partner } from './partner.ts';
import { logEvent } from './log.ts';
import { createMailer } from './mailer.ts';
import { notifyConfigFromEnv } from './notification.ts';
import { redeliveryPolicyFromEnv } from './redelivery-policy.ts';
import { SEND_LIMIT_RANGE, sendLimitsFromEnv, type SendLimits } from '../../contract/send-limits.ts';
import { openProposalsStore, type ProposalsStore } from '../store/blobs.ts';
import { MAX_TIME_FACTOR, timeBounds } from '../store/limits.ts';

/** Upper bound for CRM_TIMEOUT_MS: a delivery must end well inside the 60 s function limit. */
const MAX_CRM_TIMEOUT_MS = 30_000;

/** `store`: an opened store (the inbox script's); by default the site's, from the invocation's context. */
export function submitDepsFromEnv(
  readEnv: EnvReader,
  partner: Partner,
  consent: ConsentText,
  store?: ProposalsStore,
): SubmitDeps {
  return {
    store: store ?? openProposalsStore({ bounds: timeBounds(storeTimeFactorFromEnv(readEnv)) }),
    crm: crmAdapterFromEnv(readEnv, partner),
    mailer: createMailer(readEnv),
    partner,
    consent,
    crmTimeoutMs: crmTimeoutFromEnv(readEnv),
    notify: notifyConfigFromEnv(readEnv, partner),
    redelivery: redeliveryPolicyFromEnv(readEnv),
    limits: sendLimitsFromEnvLogged(readEnv),
  };
}

/** The send limits in force; an unusable value is logged and its default applies. */
export function sendLimitsFromEnvLogged(readEnv: EnvReader): SendLimits {
  const { limits, invalid } = sendLimitsFromEnv(readEnv);
  for (const variable of invalid) {
    logEvent('config_invalid', {
      variable,
      reason: `must be an integer from ${SEND_LIMIT_RANGE.min} to ${SEND_LIMIT_RANGE.max}`,
    });
  }
  return limits;
}

/** CRM_PROVIDER: unset or "inbox" (default), "webhook" or "hubspot". */
export function crmAdapterFromEnv(readEnv: EnvReader, partner: Partner): CrmAdapter {
  const provider = readEnv('CRM_PROVIDER')?.trim().toLowerCase() ?? 'inbox';
  switch (provider) {
    case 'inbox':
      return inboxAdapter();
    case 'webhook':
      return webhookAdapterFromEnv(readEnv);
    case 'hubspot':
      return hubSpotAdapterFromEnv(readEnv, partner);
    default:
      // Keep requests (as pending, in the inbox) rather than accept them into a CRM nobody chose.
      return misconfiguredAdapter('inbox', 'CRM_PROVIDER', 'must be inbox, webhook or hubspot');
  }
}

/** STORE_TIMEOUT_FACTOR: an integer from 1 (default) to MAX_TIME_FACTOR stretching the store's time bounds. */
export function storeTimeFactorFromEnv(readEnv: EnvReader): number {
  const raw = readEnv('STORE_TIMEOUT_FACTOR');
  if (raw === undefined) return 1;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIME_FACTOR) {
    logEvent('config_invalid', {
      variable: 'STORE_TIMEOUT_FACTOR',
      reason: `must be an integer from 1 to ${MAX_TIME_FACTOR}`,
    });
    return 1;
  }
  return value;
}

export function crmTimeoutFromEnv(readEnv: EnvReader): number {
  const raw = readEnv('CRM_TIMEOUT_MS');
  if (raw === undefined) return DEFAULT_CRM_TIMEOUT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_CRM_TIMEOUT_MS) {
    logEvent('config_invalid', {
      variable: 'CRM_TIMEOUT_MS',
      reason: `must be an integer from 1 to ${MAX_CRM_TIMEOUT_MS}`,
    });
    return DEFAULT_CRM_TIMEOUT_MS;
  }
  return value;
}
