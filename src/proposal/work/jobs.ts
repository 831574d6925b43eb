/**
 * Work owed by no request: a record `jobs/<period>-<kind>`, created once, that the engine runs: the hour's
 * digest, the day's alerts and questions, a "Not me" erasure. Its last step deletes it once nothing reads
 * it (an erasure's once its link expired, so a reused link hears "used" until then).
 */
import { CONSENT_LINK_HOURS } from '../../contract/consent.ts';
import type { CrmName } from '../../contract/submit-replies.ts';
import { isObject } from '../store/blobs.ts';
import { DAY_MS, HOUR_MS, peek } from '../store/tally.ts';
import { hourEnd, hourOf, noticeWindow, pastHourLimit } from '../limits/send-gates.ts';
import type { ConsentLinks } from '../notify/links.ts';
import {
  configAlertMessage,
  dayLimitMessage,
  digestMessage,
  erasureMessage,
  questionsMessage,
  type ErasedLead,
  type SalesMessage,
} from '../notify/messages.ts';
import type { Channels, ProposalRecord } from '../submit/record.ts';
import { askCrm, inDigest, owedChannels, tellSales, type Ctx } from './context.ts';
import { Owner, type Kind, type Owned, type Step } from './engine.ts';
import { markDue } from './due.ts';
import { readTopics } from './questions.ts';

export type JobKind = 'digest' | 'day-limit-alert' | 'questions' | 'config' | 'erasure';

export interface JobRecord extends Owned {
  kind: JobKind;
  /** The clock hour (`2026-11-28T05`), the UTC day (`2026-11-28`), or an erasure's request id. */
  period: string;
  created_at: string;
  /** Not sent before (a digest: its hour's end). */
  not_before: string;
  keep_until: string;
  message: Channels;
  variable?: string;
  /** An erasure: its CRM, deletion event, link hashes (a reuse hears "used"), the lead (no contact) till sales know. */
  erasure?: {
    crm: CrmName;
    links: ConsentLinks;
    deletion: 'owed' | 'sent' | 'failed' | 'by_hand' | 'none';
    lead?: ErasedLead;
  };
}

type J = JobRecord;
const jobId = (j: Pick<J, 'kind' | 'period'>) => `${j.period}-${j.kind}`;
export const erasureJobId = (requestId: string) => `${requestId}-erasure`;

function newJob(ctx: Ctx, kind: JobKind, period: string): J {
  const now = ctx.now();
  const day = Date.parse(`${period.slice(0, 10)}T00:00:00.000Z`);
  const ends = kind === 'digest' ? hourEnd(period).getTime() : kind === 'erasure' ? now.getTime() : day + DAY_MS;
  return {
    kind,
    period,
    created_at: now.toISOString(),
    not_before: new Date(kind === 'digest' || kind === 'questions' ? ends : now.getTime()).toISOString(),
    keep_until: new Date(ends + (kind === 'erasure' ? CONSENT_LINK_HOURS.deny * HOUR_MS : 2 * DAY_MS)).toISOString(),
    message: owedChannels(ctx),
  };
}

/** Owes the job once: its due entry, then the record, both create-if-new; a job already there is left as it is. */
async function owe(ctx: Ctx, job: J) {
  await markDue(ctx.store, job.not_before, JOBS.prefix, jobId(job));
  await ctx.store.writeIf(`${JOBS.prefix}/${jobId(job)}`, { ...job, due_at: job.not_before }, { ifNew: true });
}

export const oweJob = (ctx: Ctx, kind: Exclude<JobKind, 'erasure'>, period: string, extra: Partial<J> = {}) =>
  owe(ctx, { ...newJob(ctx, kind, period), ...extra });

/** Owes a "Not me"'s erasure job (the CRM's deletion event, sales' word), made before the request is erased. */
export async function oweErasure(ctx: Ctx, r: ProposalRecord): Promise<void> {
  const reached = r.delivery.state === 'received' && r.delivery.crm !== 'inbox';
  const takesEvents = ctx.crm.name === r.delivery.crm && ctx.crm.deleted !== undefined;
  const need = ctx.partner.choiceLabels[r.guidance.primary_need ?? ''];
  const { crm } = r.delivery;
  const lead = { company: r.contact.company, ...(need !== undefined && { need }), received_at: r.received_at };
  const deletion = !reached ? 'none' : takesEvents ? 'owed' : 'by_hand';
  const erasure: J['erasure'] = { crm, links: r.consent_links!, deletion, lead: { ...lead, crm, delivered: reached } };
  await owe(ctx, { ...newJob(ctx, 'erasure', r.request_id), erasure });
}

/** Runs a job now when it is due and free (a "Not me"'s, right after the press); else the scheduled run does. */
export async function runJobNow(ctx: Ctx, id: string): Promise<void> {
  const found = await ctx.store.read(`${JOBS.prefix}/${id}`);
  if (found === null || !isJob(found.value)) return;
  await (await Owner.take(JOBS, { record: found.value, version: found.version }, ctx))?.run();
}

/** The erasure a "Not me" left, while its link lives. */
export async function readErasure(ctx: Ctx, requestId: string) {
  const value = (await ctx.store.read(`${JOBS.prefix}/${erasureJobId(requestId)}`))?.value;
  return isJob(value) ? value.erasure : undefined;
}

async function messageOf(j: J, ctx: Ctx): Promise<SalesMessage | 'in_digest'> {
  const { limits } = ctx.config;
  if (j.kind === 'digest') {
    const hour = noticeWindow(new Date(`${j.period}:00:00.000Z`));
    const counted = await peek(ctx.store, hour, { now: ctx.now(), skip: limits.noticesPerHour });
    const erasures = counted.idsAfter.filter((id) => id.startsWith('erased-')).length;
    const more = Math.max(0, counted.count - limits.noticesPerHour);
    const counts = { more: more - erasures, erasures, suspect: counted.flaggedAfter };
    return digestMessage(j.period, counts, limits.noticesPerHour, ctx.partner);
  }
  if (j.kind === 'day-limit-alert') return dayLimitMessage(j.period, limits.perDay, ctx.partner);
  if (j.kind === 'questions') return questionsMessage(j.period, await readTopics(ctx.store, j.period));
  if (j.kind === 'config') return configAlertMessage(j.period, j.variable ?? 'a variable', 'is not usable');
  // A "Not me" counts against the hour's notices like a request: past the limit, the digest says it.
  const gates = { store: ctx.store, limits, now: ctx.now };
  if (await pastHourLimit(gates, `erased-${j.period}`, false)) {
    await oweJob(ctx, 'digest', hourOf(ctx.now()));
    return 'in_digest';
  }
  const { crm, deletion, lead } = j.erasure!;
  const unnamed = { company: 'an unnamed company', received_at: j.created_at, crm, delivered: false };
  return erasureMessage(j.period, lead ?? unnamed, deletion === 'by_hand' || deletion === 'none' ? deletion : 'event');
}

/** Once sales have been told on every channel, an erasure forgets the lead's words. */
const told = (j: J, message: Channels): J => {
  if (message.email === 'owed' || message.chat === 'owed' || j.erasure === undefined) return { ...j, message };
  const { lead: _lead, ...erasure } = j.erasure;
  return { ...j, message, erasure };
};

const messageStep = (channel: keyof Channels): Step<J, Ctx> => ({
  name: `message_${channel}`,
  owed: (j) => j.message[channel] === 'owed' && j.not_before,
  async run(j, ctx, owner) {
    const message = await messageOf(j, ctx);
    if (message === 'in_digest') return { done: (c) => told(c, inDigest(c.message)) };
    const result = await tellSales(ctx, owner, channel, message, jobId(j), { job: jobId(j) });
    if (result === 'retry') return { retry: true, reason: channel };
    return { done: (c) => told(c, { ...c.message, [channel]: result }) };
  },
  gaveUp: (j) => told(j, { ...j.message, [channel]: 'failed' }),
});

const JOB_STEPS: readonly Step<J, Ctx>[] = [
  {
    name: 'crm_deletion',
    owed: (j) => j.erasure?.deletion === 'owed',
    async run(j, ctx, owner) {
      const { crm } = ctx;
      const deleted =
        (state: 'sent' | 'by_hand') =>
        (c: J): J => ({ ...c, erasure: { ...c.erasure!, deletion: state } });
      // A CRM that takes no deletion event (or is no longer the one configured): sales delete by hand.
      if (crm.name !== j.erasure!.crm || crm.deleted === undefined) return { done: deleted('by_hand') };
      return askCrm(ctx, owner, (signal) => crm.deleted!(j.period, signal), deleted('sent'));
    },
    gaveUp: (j) => ({ ...j, erasure: { ...j.erasure!, deletion: 'failed' } }),
  },
  messageStep('email'),
  messageStep('chat'),
  {
    name: 'forget',
    owed: (j) =>
      j.erasure?.deletion !== 'owed' && j.message.email !== 'owed' && j.message.chat !== 'owed' && j.keep_until,
    run: async () => ({ done: () => null }),
  },
];

const isJob = (value: unknown): value is J =>
  isObject(value) &&
  typeof value['kind'] === 'string' &&
  typeof value['period'] === 'string' &&
  isObject(value['message']);

export const JOBS: Kind<J, Ctx> = { prefix: 'jobs', is: isJob, id: jobId, steps: JOB_STEPS, onGiveUp: (j) => j };
