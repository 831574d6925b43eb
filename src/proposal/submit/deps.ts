/** What submitProposal needs from the outside, so tests can hand it real loopback parts. */
import type { CrmAdapter } from './crm/adapter.ts';
import type { Mailer } from './mailer.ts';
import type { NotifyConfig } from './notification.ts';
import type { RedeliveryPolicy } from './redelivery-policy.ts';
import type { ConsentText, Partner } from './partner.ts';
import type { SendLimits } from '../../contract/send-limits.ts';
import type { ProposalsStore } from '../store/blobs.ts';

export interface SubmitDeps {
  /** The proposals store (openProposalsStore); every call bounded, every failure StoreUnavailable. */
  store: ProposalsStore;
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
  /** How many emails and notices go out (send-limits.ts); the defaults when absent. */
  limits?: SendLimits;
  /** How long a submit waits for another one with the same key before 409; IN_USE_WAIT_MS when absent. */
  inUseWaitMs?: number;
  /** Clock for stored times and key expiry; tests move it. */
  now?: () => Date;
}
