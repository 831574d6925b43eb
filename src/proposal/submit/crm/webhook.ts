/**
 * Generic CRM webhook, signed per Standard Webhooks so any receiver can verify it with the
 * `standardwebhooks` libraries. webhook-id is the Idempotency-Key: a receiver that dedupes on
 * it never stores one submission twice, even when our retry follows a lost 2xx.
 */
import { Webhook } from 'standardwebhooks';
import type { EnvReader } from '../env.ts';
import type { CrmAdapter } from './adapter.ts';
import { isAllowedEndpoint, postForOutcome } from './http.ts';
import { misconfiguredAdapter } from './misconfigured.ts';

export interface WebhookSettings {
  url: string;
  /** "whsec_" followed by the base64 key, as Standard Webhooks tools print it. */
  secret: string;
}

export function webhookAdapter({ url, secret }: WebhookSettings): CrmAdapter {
  const signer = new Webhook(secret);
  return {
    name: 'webhook',
    deliver: async (record, { idempotencyKey, signal }) => {
      const payload = JSON.stringify(record);
      const sentAt = new Date();
      return postForOutcome(url, {
        signal,
        body: payload,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'webhook-id': idempotencyKey,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signer.sign(idempotencyKey, sentAt, payload),
        },
      });
    },
  };
}

export function webhookAdapterFromEnv(env: EnvReader): CrmAdapter {
  const url = env('CRM_WEBHOOK_URL');
  if (url === undefined) return misconfiguredAdapter('webhook', 'CRM_WEBHOOK_URL', 'missing');
  if (!isAllowedEndpoint(url)) {
    return misconfiguredAdapter('webhook', 'CRM_WEBHOOK_URL', 'must be an https: URL (http: only on loopback)');
  }
  const secret = env('CRM_WEBHOOK_SECRET');
  if (secret === undefined) return misconfiguredAdapter('webhook', 'CRM_WEBHOOK_SECRET', 'missing');
  if (!secret.startsWith('whsec_')) {
    return misconfiguredAdapter('webhook', 'CRM_WEBHOOK_SECRET', 'must have the form whsec_<base64>');
  }
  try {
    return webhookAdapter({ url, secret });
  } catch {
    return misconfiguredAdapter('webhook', 'CRM_WEBHOOK_SECRET', 'the part after whsec_ is not valid base64');
  }
}
