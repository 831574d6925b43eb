/** What submitProposal needs from the outside, so tests can hand it real loopback parts. */
import { DEFAULT_CRM_TIMEOUT_MS, type CrmAdapter } from './crm/adapter.ts';
import type { Mailer } from './mailer.ts';
import type { NotifyConfig } from './notification.ts';
import { DEFAULT_REDELIVERY_POLICY, type RedeliveryPolicy } from './redelivery-policy.ts';
import type { ConsentText, Partner } from './partner.ts';
import { DEFAULT_SEND_LIMITS } from './send-gates.ts';
import type { SendLimits } from '../../contract/send-limits.ts';
import type { ProposalsStore } from '../store/blobs.ts';

export interface SubmitDeps {
  /** The proposals store (store/blobs.ts); every call bounded, every failure StoreUnavailable. */
  store: ProposalsStore;
  crm: CrmAdapter;
  mailer: Mailer | null;
  partner: Partner;
  consent: ConsentText;
  /** Bound of one CRM delivery (env CRM_TIMEOUT_MS). */
  crmTimeoutMs?: number;
  /** Where the sales team is told of each request; nowhere when absent. */
  notify?: NotifyConfig;
  redelivery?: RedeliveryPolicy;
  limits?: SendLimits;
  /** How long a submit waits for another one with the same key before 409. */
  inUseWaitMs?: number;
  /** Clock for stored times and key expiry; tests move it. */
  now?: () => Date;
}

/** SubmitDeps with every default filled in, where the pipeline is entered. */
export type Deps = Required<SubmitDeps>;

export const IN_USE_WAIT_MS = 5_000;

export function withDefaults(deps: SubmitDeps): Deps {
  return {
    crmTimeoutMs: DEFAULT_CRM_TIMEOUT_MS,
    notify: { emailTo: [] },
    redelivery: DEFAULT_REDELIVERY_POLICY,
    limits: DEFAULT_SEND_LIMITS,
    inUseWaitMs: IN_USE_WAIT_MS,
    now: () => new Date(),
    ...deps,
  };
}
