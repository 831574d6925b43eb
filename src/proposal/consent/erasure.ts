/**
 * What a "Not me" leaves behind once the request is erased: no contact details, only the request id,
 * the CRM it went to, the "Not me" token's hash (so a reuse hears "used") and the work still owed:
 * the CRM's deletion event and the sales team's word.
 */
import type { ProposalsStore } from '../store/blobs.ts';
import type { ConsentLinks } from '../submit/consent-links.ts';
import { isObject, type CrmEvent, type ProposalRecord } from '../submit/record.ts';
import type { CrmName } from '../../contract/submit-replies.ts';

export const ERASURES_PREFIX = 'erasures/';

export interface Erasure {
  request_id: string;
  erased_at: string;
  crm: CrmName;
  /** Whether the CRM ever accepted it: only then is it asked to delete it. */
  delivered: boolean;
  links: ConsentLinks;
  crm_deletion: CrmEvent;
  sales_notice: { state: 'owed' | 'sent' | 'failed'; attempts: number };
}

export function erasureOf(record: ProposalRecord, at: string): Erasure {
  const delivered = record.delivery.state === 'received';
  return {
    request_id: record.request_id,
    erased_at: at,
    crm: record.delivery.crm,
    delivered,
    links: { ...record.consent_links!, used: { answer: 'deny', at } },
    crm_deletion: {
      event: `${record.request_id}.erased`,
      // The inbox is the store: erasing the record deleted it there.
      state: delivered && record.delivery.crm !== 'inbox' ? 'owed' : 'sent',
      attempts: 0,
      since: at,
    },
    sales_notice: { state: 'owed', attempts: 0 },
  };
}

export async function storeErasure(store: ProposalsStore, erasure: Erasure): Promise<void> {
  await store.writeIf(`${ERASURES_PREFIX}${erasure.request_id}`, erasure, { ifNew: true });
}

export async function readErasure(store: ProposalsStore, requestId: string): Promise<Erasure | null> {
  const found = await store.read(`${ERASURES_PREFIX}${requestId}`);
  return found !== null && isObject(found.value) && isObject(found.value['links'])
    ? (found.value as unknown as Erasure)
    : null;
}
