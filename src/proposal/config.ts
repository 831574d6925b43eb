/**
 * Every variable of the function (`.env.example`), read here once, each with the error it logs. An unusable
 * value never fails a request: the safe reading applies (requests kept pending, strict consent held).
 */
import { RETENTION_DAYS_RANGE, DEFAULT_RETENTION_DAYS } from '../contract/data-handling.ts';
import { SEND_LIMIT_RANGE, sendLimitsFromEnv } from '../contract/send-limits.ts';
import { LOOPBACK_DIRECTORY_ENV } from '../contract/web-bot-auth.ts';
import type { CrmName } from '../contract/submit-replies.ts';
import type { RetryPolicy } from './work/engine.ts';

export type EnvReader = (name: string) => string | undefined;

/** What the CRM adapter is built from (submit/crm.ts); `misconfigured` keeps requests pending and says why. */
export type CrmSettings =
  | { provider: 'inbox' }
  | { provider: 'webhook'; url: string; secret: string }
  | { provider: 'hubspot'; portalId: string; formGuid: string; accessToken: string; apiBase: string }
  | { provider: CrmName; misconfigured: { variables: string[]; reason: string } };

export type Config = ReturnType<typeof readConfig>['config'];
type ConfigProblem = { variable: string; reason: string; missing?: true };

export const MIN_SECRET_LENGTH = 32;
const ENDPOINT_RULE = 'must be an https: URL (http: only on loopback)';
/** Host names of this machine as a URL spells them. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** A public key, so the per-client limit still counts across instances when the secret is missing. */
const PUBLIC_NETWORK_SECRET = 'proposal-send-limit';

/** https:, or plain http on loopback for local runs and tests; no credentials in it. */
export function isAllowedEndpoint(value: string): boolean {
  const url = URL.parse(value);
  if (url === null || url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

export function readConfig(env: EnvReader) {
  const problems: ConfigProblem[] = [];
  const bad = (variable: string, reason: string, missing = false) =>
    void problems.push({ variable, reason, ...(missing && { missing: true as const }) });
  const number = (name: string, { min, max }: { min: number; max: number }, fallback: number, integer = false) => {
    const raw = env(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if ((integer ? Number.isInteger(value) : Number.isFinite(value)) && value >= min && value <= max) return value;
    bad(name, `must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
    return fallback;
  };

  const { limits, invalid } = sendLimitsFromEnv(env);
  for (const variable of invalid)
    bad(variable, `must be an integer from ${SEND_LIMIT_RANGE.min} to ${SEND_LIMIT_RANGE.max}`);

  const giveUpAfterMs = number('REDELIVERY_MAX_HOURS', { min: 0.0001, max: 8_760 }, 72) * 3_600_000;
  let retentionDays = number('RETENTION_DAYS', RETENTION_DAYS_RANGE, DEFAULT_RETENTION_DAYS);
  if (retentionDays * 86_400_000 < giveUpAfterMs) {
    // Retention must not end a request that redelivery may still complete.
    bad(
      'RETENTION_DAYS',
      `must cover REDELIVERY_MAX_HOURS (${giveUpAfterMs / 3_600_000} h); ${DEFAULT_RETENTION_DAYS} days apply`,
    );
    retentionDays = DEFAULT_RETENTION_DAYS;
  }

  const secret = env('CONSENT_SECRET')?.trim();
  if (secret !== undefined && secret.length < MIN_SECRET_LENGTH)
    bad('CONSENT_SECRET', `must be at least ${MIN_SECRET_LENGTH} characters; no links are sent`);
  const mode = env('CONSENT_CONFIRMATION')?.trim().toLowerCase();
  // Fails closed: anything but unset or "optional" holds requests the person has not confirmed.
  const strict = mode !== undefined && mode !== 'optional';
  if (strict && mode !== 'required')
    bad('CONSENT_CONFIRMATION', 'must be "required" or "optional"; "required" applies');
  const usable = secret !== undefined && secret.length >= MIN_SECRET_LENGTH ? secret : undefined;
  if (strict && usable === undefined)
    bad('CONSENT_SECRET', 'CONSENT_CONFIRMATION holds requests, and without this secret nobody can confirm them');

  // The site's own address says it runs deployed (netlify serve sets a made-up DEPLOY_PRIME_URL locally).
  const deployed = !LOOPBACK_HOSTS.has(URL.parse(env('URL') ?? 'http://localhost')?.hostname ?? 'localhost');
  const network = env('CLIENT_NETWORK_SECRET')?.trim() ?? '';
  if (network.length < MIN_SECRET_LENGTH && deployed)
    bad(
      'CLIENT_NETWORK_SECRET',
      `must be at least ${MIN_SECRET_LENGTH} characters; a public key applies until it is set`,
      network === '',
    );

  const mail = env('SMTP_URL') !== undefined && env('MAIL_FROM') !== undefined;
  const chatUrl = env('NOTIFY_WEBHOOK_URL');
  if (chatUrl !== undefined && !isAllowedEndpoint(chatUrl)) bad('NOTIFY_WEBHOOK_URL', ENDPOINT_RULE);
  const emailTo = env('NOTIFY_EMAIL')?.split(',').map((a) => a.trim()).filter((a) => a !== ''); // prettier-ignore

  const crm = crmSettings(env);
  const config = {
    crm,
    crmTimeoutMs: number('CRM_TIMEOUT_MS', { min: 1, max: 30_000 }, 8_000, true),
    // Without SMTP_URL and MAIL_FROM no email is sent; sales are told at NOTIFY_EMAIL, else the partner's address.
    ...(mail && { mail: { url: env('SMTP_URL')!, from: env('MAIL_FROM')! } }),
    notify: {
      ...(emailTo !== undefined && { emailTo }),
      ...(chatUrl !== undefined && isAllowedEndpoint(chatUrl) && { chatUrl }),
    },
    retry: {
      firstMs: number('REDELIVERY_BACKOFF_SECONDS', { min: 0.1, max: 3_600 }, 60) * 1000,
      factor: 2,
      capMs: 3_600_000,
      giveUpAfterMs,
    } satisfies RetryPolicy,
    retentionMs: retentionDays * 86_400_000,
    limits,
    storeTimeFactor: number('STORE_TIMEOUT_FACTOR', { min: 1, max: 3 }, 1, true),
    consent: { ...(usable !== undefined && { secret: usable }), strict },
    networkSecret: network.length >= MIN_SECRET_LENGTH ? network : PUBLIC_NETWORK_SECRET,
    /** Netlify's own addresses of the deploy: the hosts served. */
    deployUrls: ['URL', 'DEPLOY_URL', 'DEPLOY_PRIME_URL'].flatMap((name) => env(name) ?? []),
    /** Key directories on loopback over plain HTTP (npm start, npm run dev): never on a deploy. */
    loopbackDirectories: env(LOOPBACK_DIRECTORY_ENV) === '1' && !deployed,
  };
  if ('misconfigured' in crm)
    for (const variable of crm.misconfigured.variables) bad(variable, crm.misconfigured.reason);
  return { config, problems };
}

/** CRM_PROVIDER: unset or "inbox" (default), "webhook" or "hubspot", with the variables each needs. */
function crmSettings(env: EnvReader): CrmSettings {
  const chosen = env('CRM_PROVIDER')?.trim().toLowerCase() ?? 'inbox';
  if (chosen === 'inbox') return { provider: chosen };
  // Requests stay pending in the inbox rather than go to a CRM nobody chose.
  if (chosen !== 'webhook' && chosen !== 'hubspot')
    return {
      provider: 'inbox',
      misconfigured: { variables: ['CRM_PROVIDER'], reason: 'must be inbox, webhook or hubspot' },
    };
  const provider = chosen;
  const wrong = (variables: string[], reason: string): CrmSettings => ({
    provider,
    misconfigured: { variables, reason },
  });
  const needed =
    provider === 'webhook'
      ? ['CRM_WEBHOOK_URL', 'CRM_WEBHOOK_SECRET']
      : ['HUBSPOT_PORTAL_ID', 'HUBSPOT_FORM_GUID', 'HUBSPOT_ACCESS_TOKEN'];
  const unset = needed.filter((variable) => env(variable) === undefined);
  if (unset.length > 0) return wrong(unset, 'missing');
  const values = needed.map((name) => env(name)!) as [string, string, string];
  if (provider === 'webhook') {
    const [url, secret] = values;
    if (!isAllowedEndpoint(url)) return wrong(['CRM_WEBHOOK_URL'], ENDPOINT_RULE);
    if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret))
      return wrong(['CRM_WEBHOOK_SECRET'], 'must have the form whsec_<base64>');
    return { provider, url, secret };
  }
  const [portalId, formGuid, accessToken] = values;
  if (!/^\d+$/.test(portalId)) return wrong(['HUBSPOT_PORTAL_ID'], 'must be digits');
  if (!/^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(formGuid))
    return wrong(['HUBSPOT_FORM_GUID'], 'must be a form GUID');
  const apiBase = env('HUBSPOT_API_BASE') ?? 'https://api.hsforms.com';
  if (!isAllowedEndpoint(apiBase)) return wrong(['HUBSPOT_API_BASE'], ENDPOINT_RULE);
  return { provider, portalId, formGuid, accessToken, apiBase };
}
