/**
 * What a "Not me" leaves behind once the request is erased: a job of the owed-work engine
 * (`jobs/<request_id>-erasure`) with no contact details, only the request id, the CRM it went to, the
 * "Not me" link's hash (so a reuse hears "used") and the work still owed: the CRM's deletion event
 * (webhook; by hand for HubSpot) and the sales team's word. Owed before the request is erased, so
 * neither is lost whatever fails after.
 */
import { readVersioned } from '../store/record-lease.ts';
import type { SubmitDeps } from '../submit/config.ts';
import { completeJob, erasureJobId, JOBS, oweJob, type ErasureWork } from '../submit/jobs.ts';
import type { ProposalRecord } from '../submit/record.ts';

/** The erasure's own part: a deletion event owed only when the CRM ever had the request and takes one. */
export function erasureOf(record: ProposalRecord, at: string, deps: Pick<SubmitDeps, 'crm'>): ErasureWork {
  const delivered = record.delivery.state === 'received' && record.delivery.crm !== 'inbox';
  const takesEvents = deps.crm.name === record.delivery.crm && deps.crm.deliverEvent !== undefined;
  const state = !delivered ? 'sent' : takesEvents ? 'owed' : 'by_hand';
  return {
    crm: record.delivery.crm,
    links: { ...record.consent_links!, used: { answer: 'deny', at } },
    deletion: { event: `${record.request_id}.erased`, state, attempts: 0, since: at },
  };
}

/** Owes the erasure's work; run now when it is free, else by the sweep. */
export async function oweErasure(record: ProposalRecord, at: string, deps: SubmitDeps): Promise<void> {
  await oweJob('erasure', record.request_id, deps, erasureOf(record, at, deps));
}

export const completeErasure = (requestId: string, deps: SubmitDeps) => completeJob(erasureJobId(requestId), deps);

/** The erasure a "Not me" left for this request, if any. */
export async function readErasure(deps: Pick<SubmitDeps, 'store'>, requestId: string) {
  return (await readVersioned(deps.store, JOBS, erasureJobId(requestId)))?.record.erasure ?? null;
}
