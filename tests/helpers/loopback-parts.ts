/** The real parts the submit tests talk to, started once per file on 127.0.0.1 and reset per test. */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startBlobs, type TestBlobs } from './blobs.ts';
import { OK, startCrmServer, type TestCrmServer } from './crm-server.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';
import { newWebhookSecret } from './submit-fixtures.ts';

export interface LoopbackParts {
  blobs: TestBlobs;
  crm: TestCrmServer;
  smtp: TestSmtp;
  /** The sales team's chat webhook stand-in (NOTIFY_WEBHOOK_URL): answers 200 at the start of each test. */
  chat: TestCrmServer;
  /** Signing secret for the webhook CRM, `whsec_…`. */
  webhookSecret: string;
}

/** Registers the hooks; the returned object's servers are there from beforeAll on. */
export function useLoopbackParts(): LoopbackParts {
  const parts = { webhookSecret: newWebhookSecret() } as LoopbackParts;
  beforeAll(async () => {
    [parts.blobs, parts.crm, parts.smtp, parts.chat] = await Promise.all([
      startBlobs(),
      startCrmServer(),
      startSmtp(),
      startCrmServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([parts.crm?.stop(), parts.smtp?.stop(), parts.chat?.stop()]);
    await parts.blobs?.stop();
  });
  beforeEach(() => {
    parts.crm.requests.length = 0;
    parts.smtp.messages.length = 0;
    parts.chat.requests.length = 0;
    parts.chat.behave(OK);
  });
  return parts;
}

/** The sender address the e2e sites send from. */
export const TEST_MAIL_FROM = 'Kestrel Cloud <no-reply@kestrelcloud.example>';

/** The environment that points `npm start` at a loopback webhook CRM (`/hook`) and SMTP server. */
export function loopbackDeliveryEnv(crm: TestCrmServer, smtp: TestSmtp): Record<string, string> {
  return {
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${crm.url}/hook`,
    CRM_WEBHOOK_SECRET: newWebhookSecret(),
    SMTP_URL: smtp.url,
    MAIL_FROM: TEST_MAIL_FROM,
  };
}
