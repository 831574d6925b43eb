import { describe, expect, it } from 'vitest';
import { processorsInUse } from '../../src/lib/content/processors.ts';

// The privacy notice lists the processors the build's configuration uses, from content/site.md's names.
const processor = (name: string) => ({ name, role: 'r', location: 'l', terms: 'https://example.test/dpa' });
const processors = {
  hosting: processor('Host'),
  crm_hubspot: processor('HubSpot'),
  crm_webhook: processor('Own CRM'),
  email: processor('Mail'),
  chat: processor('Chat'),
};
const names = (env: Record<string, string>) => processorsInUse(processors, env).map((p) => p.name);

describe('the processors a privacy notice names', () => {
  it('is the host alone with nothing configured, or the inbox CRM (the host stores the requests)', () => {
    expect(names({})).toEqual(['Host']);
    expect(names({ CRM_PROVIDER: 'inbox' })).toEqual(['Host']);
  });

  it('adds the CRM that CRM_PROVIDER names, as the function reads it', () => {
    expect(names({ CRM_PROVIDER: 'hubspot' })).toEqual(['Host', 'HubSpot']);
    expect(names({ CRM_PROVIDER: ' Webhook ' })).toEqual(['Host', 'Own CRM']);
  });

  it('adds the mail provider only when SMTP_URL and MAIL_FROM are both set, and the chat with NOTIFY_WEBHOOK_URL', () => {
    expect(names({ SMTP_URL: 'smtp://x' })).toEqual(['Host']);
    expect(
      names({ SMTP_URL: 'smtp://x', MAIL_FROM: 'a@b.example', NOTIFY_WEBHOOK_URL: 'https://chat.example/h' }),
    ).toEqual(['Host', 'Mail', 'Chat']);
  });
});
