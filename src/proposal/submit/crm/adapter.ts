/** The seam between the stored request and whatever system the partner uses as its CRM. */
import type { CrmFailureKind, CrmName, ProposalRecord } from '../record.ts';

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

/**
 * Runs one delivery with a deadline. The race also covers an adapter that ignores its signal,
 * and a throwing adapter becomes a failure outcome so the request stays stored as pending.
 */
export async function deliverWithin(
  adapter: CrmAdapter,
  record: ProposalRecord,
  idempotencyKey: string,
  timeoutMs: number,
): Promise<CrmOutcome> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<CrmOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException('CRM delivery timed out', 'TimeoutError'));
      resolve({ ok: false, kind: 'timeout' });
    }, timeoutMs);
  });
  const delivered = adapter
    .deliver(record, { idempotencyKey, signal: controller.signal })
    .catch((): CrmOutcome => ({ ok: false, kind: controller.signal.aborted ? 'timeout' : 'unreachable' }));
  try {
    return await Promise.race([delivered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
