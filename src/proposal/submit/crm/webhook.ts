/**
 * Generic CRM webhook, signed per Standard Webhooks so any receiver can verify it with the
 * `standardwebhooks` libraries. webhook-id is the Idempotency-Key: a receiver that dedupes on
 * it never stores one submission twice, even when our retry follows a lost 2xx.
 */
import { Webhook } from 'standardwebhooks';
import type { CrmAdapter } from './adapter.ts';
import { postForOutcome } from './http.ts';

/** `secret`: "whsec_" followed by the base64 key, as Standard Webhooks tools print it. */
export function webhookAdapter({ url, secret }: { url: string; secret: string }): CrmAdapter {
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
