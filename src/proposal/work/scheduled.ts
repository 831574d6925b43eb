/**
 * The scheduled run (Netlify's clock, every minute; `npm start` and `npm run dev` run it on the same
 * cadence): the owed work that is due, from the head of the due listing, then what time deletes, each
 * from the head of its own time-ordered names: requests past RETENTION_DAYS, ended tallies, grants
 * and nonces past their lives. Its cost grows with what is due, not with what is stored.
 * `npm run inbox -- redeliver` runs it too, backoff ignored.
 */
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import { errorName, logEvent } from '../log.ts';
import { GRANT_KEEP_HOURS } from '../../contract/consent.ts';
import { STORE_LIMITS, StoreUnavailable } from '../store/blobs.ts';
import { deleteExpiring, expiredRecords } from '../store/expiring.ts';
import { idTime } from '../store/ids.ts';
import { deleteEnded } from '../store/tally.ts';
import type { Ctx } from './context.ts';
import { claimFree, CLOCK_SKEW_MS, nextDue, Owner, type Kind, type Owned } from './engine.ts';
import { listDue, markDue, type DueEntry } from './due.ts';
import { JOBS } from './jobs.ts';
import { REQUESTS } from './request-steps.ts';

const KINDS = { [REQUESTS.prefix]: REQUESTS, [JOBS.prefix]: JOBS } as Record<string, Kind<Owned, Ctx>>;
/** Entries a run takes, and records worked on at once. */
export const RUN_LIMITS = { entries: 200, concurrency: 4, deletions: 200 } as const;
/** Time kept free at the end of a run for the clean-up and the last writes. */
const RESERVE_MS = 5_000;

type Result = 'done' | 'busy' | 'stopped' | 'stale' | 'unreadable' | 'missing';

/** One entry: its record's owed work run when it is due and free; a stale entry deleted. */
async function work(ctx: Ctx, entry: DueEntry, ignoreBackoff: boolean): Promise<Result> {
  const kind = KINDS[entry.kind];
  const found = kind === undefined ? null : await ctx.store.read(`${kind.prefix}/${entry.id}`);
  // An entry is written one store call before its record: that young, the record may be on its way (and
  // its owner may die holding its claim), so the entry stays for the next run.
  const young = (STORE_LIMITS.callMs + STORE_LIMITS.attemptMs) * ctx.store.timeFactor + CLOCK_SKEW_MS;
  if (kind !== undefined && found === null && ctx.now().getTime() - Date.parse(entry.at) < young) return 'missing';
  if (kind === undefined || found === null) {
    // A request's entry is written before its record: the sender may store it yet while its key can name it.
    const possibleUntil = (idTime(entry.id) ?? 0) + KEY_RETENTION_MS + ctx.limitMs;
    if (kind === REQUESTS && possibleUntil > ctx.now().getTime()) {
      await markDue(ctx.store, new Date(possibleUntil).toISOString(), entry.kind, entry.id);
    }
    await ctx.store.remove(entry.key);
    return 'missing';
  }
  if (!kind.is(found.value)) {
    // Never taken for absent: the entry stays, and an operator looks at the record.
    logEvent('record_unreadable', { kind: entry.kind, id: entry.id });
    return 'unreadable';
  }
  const record = found.value;
  const due = nextDue(kind, record, ctx);
  const stale = due === undefined || (record.due_at !== entry.at && !ignoreBackoff && due > ctx.now().toISOString());
  if (stale) {
    await ctx.store.remove(entry.key);
    return 'stale';
  }
  if (!claimFree(record, ctx.now())) return 'busy';
  const owner = await Owner.take(kind, { record, version: found.version }, ctx);
  if (owner === null) return 'busy';
  const result = await owner.run({ ignoreBackoff });
  if (result.stopped) return 'stopped';
  // The release moved the record's own entry; one that was not it goes now.
  if (record.due_at !== entry.at) await ctx.store.remove(entry.key);
  return 'done';
}

/** Past every due entry's time: with the backoff ignored, entries waiting for a retry are listed too. */
const LAST_TIME = new Date('9999-12-31T23:59:59.999Z');

export async function runScheduled(invocation: Ctx, { ignoreBackoff = false } = {}) {
  // A receiver that failed once in this run is not tried again before the next.
  const ctx: Ctx = { ...invocation, unreachable: new Set() };
  const entries = await listDue(ctx.store, ignoreBackoff ? LAST_TIME : ctx.now(), RUN_LIMITS.entries).catch(
    (error: unknown) => {
      // The store failed: what is due stays listed for the next run, as an entry that fails does.
      if (!(error instanceof StoreUnavailable)) throw error;
      logEvent('store_unavailable', { kind: 'due', operation: error.operation, reason: error.reason });
      return [];
    },
  );
  const results: Result[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(RUN_LIMITS.concurrency, entries.length) }, async () => {
      while (next < entries.length && ctx.ends - ctx.mono() > RESERVE_MS) {
        const entry = entries[next++]!;
        try {
          results.push(await work(ctx, entry, ignoreBackoff));
        } catch (error) {
          // The store failed: the entry stays for the next run. Anything else surfaces.
          if (!(error instanceof StoreUnavailable)) throw error;
          logEvent('store_unavailable', {
            kind: entry.kind,
            id: entry.id,
            operation: error.operation,
            reason: error.reason,
          });
          results.push('stopped');
        }
      }
    }),
  );
  const deleted = ctx.ends - ctx.mono() > RESERVE_MS ? await deleteExpired(ctx) : {};
  const count = (r: Result) => results.filter((x) => x === r).length;
  const summary = {
    due: entries.length,
    done: count('done'),
    busy: count('busy'),
    stopped: count('stopped'),
    stale: count('stale'),
    ...deleted,
  };
  logEvent('scheduled_run', summary);
  return summary;
}

/** What time deletes: each kind from the head of its time-ordered names, a batch a run. */
async function deleteExpired(ctx: Ctx) {
  const now = ctx.now().getTime();
  const { store } = ctx;
  const out: Record<string, number> = {};
  try {
    let requests = 0;
    for (const key of await expiredRecords(
      store,
      `${REQUESTS.prefix}/`,
      now - ctx.config.retentionMs,
      RUN_LIMITS.deletions,
    )) {
      const found = await store.read(key);
      if (!found || !REQUESTS.is(found.value)) continue;
      // Never while it owes an effect.
      if (nextDue(REQUESTS, found.value, ctx) !== undefined || !claimFree(found.value, ctx.now())) {
        logEvent('retention_kept_owed_request', { request_id: found.value.request_id });
        continue;
      }
      const owner = await Owner.take(REQUESTS, { record: found.value, version: found.version }, ctx);
      if (owner === null) continue;
      await REQUESTS.erase!(owner.record, ctx);
      await store.remove(key);
      requests++;
    }
    out['requests_deleted'] = requests;
    out['tallies_deleted'] = await deleteEnded(store, ctx.now(), RUN_LIMITS.deletions);
    Object.assign(out, await deleteExpiring(store, now, GRANT_KEEP_HOURS * 3_600_000, RUN_LIMITS.deletions));
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    logEvent('scheduled_run_error', { name: errorName(error), operation: error.operation, reason: error.reason });
  }
  return out;
}
