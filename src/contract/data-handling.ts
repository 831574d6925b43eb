/** What the intake stores, where, how long, what it sends and how to erase it: for the contract and every page. */
import { IDEMPOTENCY_RETENTION_HOURS } from './idempotency-rules.ts';
import { CLIENT_COUNTING, DOMAIN_COUNTING, MAILBOX_COUNTING, sendLimitsFromEnv } from './send-limits.ts';

export const RETENTION_DAYS_RANGE = { min: 1, max: 36_500 } as const;

/** Days a stored request is kept when RETENTION_DAYS is unset, invalid or shorter than the redelivery window. */
export const DEFAULT_RETENTION_DAYS = 365;

/** How often the scheduled clean-up runs, on a site nobody visits as on a busy one. */
export const CLEAN_UP_SCHEDULE = 'every minute';

/** RETENTION_DAYS as a number of days; undefined when unset, empty or out of range. */
export function retentionDays(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const days = Number(raw);
  return Number.isFinite(days) && days >= RETENTION_DAYS_RANGE.min && days <= RETENTION_DAYS_RANGE.max
    ? days
    : undefined;
}

/** The texts for the environment the site is built in (its RETENTION_DAYS and send limits). */
export function dataHandlingFromEnv(
  { name, email }: { name: string; email: string },
  env: Record<string, string | undefined> = process.env,
  privacyUrl?: string,
) {
  const asked = retentionDays(env['RETENTION_DAYS']);
  // The function refuses a retention shorter than its redelivery window (REDELIVERY_MAX_HOURS, 72 by default)
  // and applies the default instead.
  const maxHours = Number(env['REDELIVERY_MAX_HOURS'] ?? '72');
  const refused = asked !== undefined && asked * 24 < (Number.isFinite(maxHours) ? maxHours : 72);
  const days = asked === undefined || refused ? DEFAULT_RETENTION_DAYS : asked;
  const { limits } = sendLimitsFromEnv((variable) => env[variable]);
  return {
    stored:
      `Summarize stores nothing, and guide stores nothing about you: a question no capability answers is counted by its topic words only (at most six words, no names, addresses, links or numbers; at most 100 topics a day, deleted two days later), so ${name} learns what it is asked and cannot answer. A submitted request (the contact details, the intake fields, the consent ` +
      `text and version agreed to, and when it arrived) is stored by ${name}, delivered to its customer-relationship ` +
      `system, and ${name}'s sales team is told of it.`,
    consent_record:
      `With each request ${name} keeps a record of the consent: that it was given, the exact text's version and its ` +
      `SHA-256 digest, when, the channel it came through, how it was given (ticked on ${name}'s form, confirmed ` +
      `through the link in the confirmation email, confirmed on ${name}'s page from an AI assistant, accepted in an ` +
      `AI assistant's own dialog, or only stated by the sending agent) and who vouches for it; for requests sent over ` +
      `MCP also the protocol revision and the name the assistant gives itself. The record goes to the ` +
      `customer-relationship system and the sales team with the request.`,
    where:
      `Requests are stored in Netlify Blobs, the storage of the host that runs this site. They are delivered to the ` +
      `customer-relationship system ${name} configures, and emails go through the mail provider ${name} configures; ` +
      `each receives the request only to do that job.`,
    retention_days: days,
    retention:
      `A stored request is deleted ${days} days after it arrived` +
      (days === DEFAULT_RETENTION_DAYS && asked !== DEFAULT_RETENTION_DAYS ? ' (the default period)' : '') +
      `, by a scheduled clean-up that runs ${CLEAN_UP_SCHEDULE} whether or not anyone visits the site, or sooner when its deletion is asked for.` +
      // One pointer per key, deleted with the request it names (proposal/store/keys.ts).
      ` The key a sender's software sends so that a retry never sends a request twice is kept ${IDEMPOTENCY_RETENTION_HOURS} hours, only as a hash, and deleted with its request.`,
    limits: {
      confirmation_emails_per_address_per_day: limits.perAddress,
      confirmation_emails_per_client_per_day: limits.perClient,
      confirmation_emails_per_domain_per_day: limits.perDomain,
      confirmation_emails_per_day: limits.perDay,
      sales_notices_per_hour: limits.noticesPerHour,
    },
    // What a limit counts: spellings of one mailbox are one address, each sending client and each
    // recipient domain has its own share.
    counting: { address: MAILBOX_COUNTING, client: CLIENT_COUNTING, domain: DOMAIN_COUNTING },
    sending:
      `The confirmation email repeats nothing that was sent, only the request id, when it arrived and what happens next. ` +
      `At most ${limits.perAddress} confirmation emails go to one mailbox in 24 hours, at most ${limits.perClient} ` +
      `to the addresses one client sends, at most ${limits.perDomain} to one domain other than a large mail ` +
      `provider's, and at most ${limits.perDay} from the whole site in a day; past a limit the ` +
      `request is still stored and delivered, and the reply says confirmation_email "limited".`,
    erasure:
      `To have a request deleted, write to ${email} with its request_id or the email address it was sent with; everything stored for it is deleted. ` +
      `A request sent with your address by somebody else can also be deleted with the “Not me” link in its confirmation email, for 30 days.`,
    ...(privacyUrl !== undefined && { privacy_notice: privacyUrl }),
  };
}

export type DataHandling = ReturnType<typeof dataHandlingFromEnv>;
