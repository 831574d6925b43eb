/** What submitProposal needs from the outside, so tests can hand it real loopback parts. */
import type { Store } from '@netlify/blobs';
import type { CrmAdapter } from './crm/adapter.ts';
import type { Mailer } from './mailer.ts';
import type { NotifyConfig } from './notification.ts';
import type { RedeliveryPolicy } from './redelivery-policy.ts';

/** Reads one configuration variable, e.g. `readEnv` of ../http.ts. */
export type EnvReader = (name: string) => string | undefined;

export interface Partner {
  /** Display name, e.g. "Kestrel Cloud". */
  name: string;
  /** How the partner is described, from content: "an independent cloud consulting and delivery partner". */
  describedAs: string;
  /** Where replies to the confirmation email go. */
  email: string;
  /** The proposal workspace, sent to the CRM as the page of the submission. */
  proposalUrl: string;
}

export interface ConsentText {
  text: string;
  version: string;
}

export interface SubmitDeps {
  /** getStore from @netlify/blobs, opened by the caller with consistency 'strong'. */
  store: Store;
  crm: CrmAdapter;
  mailer: Mailer | null;
  partner: Partner;
  consent: ConsentText;
  /** Bound of one CRM delivery; defaults to 8 s (env CRM_TIMEOUT_MS via config.ts). */
  crmTimeoutMs?: number;
  /** Where the sales team is told of each request; none when absent. */
  notify?: NotifyConfig;
  /** Sweep interval, backoff and retention; DEFAULT_REDELIVERY_POLICY when absent. */
  redelivery?: RedeliveryPolicy;
  /** Clock for stored times and key expiry; tests move it. */
  now?: () => Date;
}
