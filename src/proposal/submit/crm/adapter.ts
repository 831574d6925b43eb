/** The seam between the stored request and whatever system the partner uses as its CRM. */
import type { CrmName } from '../../../contract/submit-replies.ts';
import type { CrmFailureKind, ProposalRecord } from '../record.ts';

export type CrmOutcome =
  { ok: true; reference?: string } | { ok: false; kind: CrmFailureKind; retryAfterSeconds?: number };

export interface CrmDeliveryContext {
  /** Sent along so a receiver can drop duplicates of one submission. */
  idempotencyKey: string;
  /** Aborted when the delivery runs out of time. */
  signal: AbortSignal;
}

export interface CrmAdapter {
  name: CrmName;
  /** The stored record is itself the delivery (the Blobs inbox): storing it is accepting it. */
  storesRecord?: boolean;
  deliver(record: ProposalRecord, ctx: CrmDeliveryContext): Promise<CrmOutcome>;
}

/** Default bound of one delivery: far below the platform's 60 s limit, leaving time to store and answer. */
export const DEFAULT_CRM_TIMEOUT_MS = 8_000;

/** One delivery with a deadline, even for an adapter that ignores its signal; a throw is a failure outcome. */
export async function deliverWithin(
  adapter: CrmAdapter,
  record: ProposalRecord,
  idempotencyKey: string,
  timeoutMs: number,
): Promise<CrmOutcome> {
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = new Promise<CrmOutcome>((resolve) =>
    signal.addEventListener('abort', () => resolve({ ok: false, kind: 'timeout' }), { once: true }),
  );
  const delivered = adapter
    .deliver(record, { idempotencyKey, signal })
    .catch((): CrmOutcome => ({ ok: false, kind: signal.aborted ? 'timeout' : 'unreachable' }));
  return Promise.race([delivered, timedOut]);
}
