/** The processors the privacy notice lists: those the build's configuration uses, which the function gets too. */
import type { SiteData } from './entry-schema.ts';

type Processors = SiteData['processors'];

/**
 * Hosting always (Netlify runs the site and the function and, with CRM_PROVIDER unset or "inbox",
 * its store is the system of record); the CRM that CRM_PROVIDER names; email when SMTP_URL and
 * MAIL_FROM are both set; the chat notice when NOTIFY_WEBHOOK_URL is. On Netlify, give these
 * variables the Builds scope as well as Functions, so the notice states what the function does.
 */
export function processorsInUse(
  processors: Processors,
  env: Record<string, string | undefined> = process.env,
): Processors[keyof Processors][] {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  const crm = env['CRM_PROVIDER']?.trim().toLowerCase();
  return [
    processors.hosting,
    ...(crm === 'hubspot' ? [processors.crm_hubspot] : crm === 'webhook' ? [processors.crm_webhook] : []),
    ...(set('SMTP_URL') && set('MAIL_FROM') ? [processors.email] : []),
    ...(set('NOTIFY_WEBHOOK_URL') ? [processors.chat] : []),
  ];
}
