/**
 * The scheduled run (every minute; `npm run inbox -- redeliver` ignores the backoff): the owed work that
 * is due, then what time deletes, each from the head of its time-ordered names, so its cost grows with
 * what is due, not with what is stored.
 */
import { KEY_RETENTION_MS } from '../../contract/idempotency-rules.ts';
import { errorName, logEvent, type LogEvent, type LogFields } from '../log.ts';
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

export const RUN_LIMITS = { entries: 200, concurrency: 4, deletions: 200 } as const;
/** Time kept free at the end of a run for the clean-up and the last writes. */
const RESERVE_MS = 5_000;
/** Past every due entry's time: with the backoff ignored, entries waiting for a retry are listed too. */
const LAST_TIME = new Date('9999-12-31T23:59:59.999Z');

/** A store that failed leaves what it holds for the next run; anything else surfaces. */
function storeFailed(error: unknown, fields: LogFields, event: LogEvent = 'store_unavailable') {
  if (!(error instanceof StoreUnavailable)) throw error;
  logEvent(event, { ...fields, operation: error.operation, reason: error.reason });
}

/** One entry: its record's owed work run when it is due and free; a stale entry deleted (undefined: not counted). */
const work = (ctx: Ctx, entry: DueEntry, ignoreBackoff: boolean) =>
  entry.kind === JOBS.prefix
    ? workOn(ctx, entry, ignoreBackoff, JOBS)
    : workOn(ctx, entry, ignoreBackoff, entry.kind === REQUESTS.prefix ? REQUESTS : undefined);

async function workOn<R extends Owned>(ctx: Ctx, entry: DueEntry, ignoreBackoff: boolean, kind?: Kind<R, Ctx>) {
  const found = kind === undefined ? null : await ctx.store.read(`${kind.prefix}/${entry.id}`);
  if (kind === undefined || found === null) {
    // An entry is written one store call before its record: that young, the record may be on its way
    // (and its owner may die holding its claim), so the entry stays for the next run.
    const young = (STORE_LIMITS.callMs + STORE_LIMITS.attemptMs) * ctx.store.timeFactor + CLOCK_SKEW_MS;
    if (kind !== undefined && ctx.now().getTime() - Date.parse(entry.at) < young) return;
    // The sender may store a request yet while its key can name it.
    const possibleUntil = (idTime(entry.id) ?? 0) + KEY_RETENTION_MS + ctx.limitMs;
    if (entry.kind === REQUESTS.prefix && possibleUntil > ctx.now().getTime())
      await markDue(ctx.store, new Date(possibleUntil).toISOString(), entry.kind, entry.id);
    await ctx.store.remove(entry.key);
    return;
  }
  if (!kind.is(found.value)) {
    // Never taken for absent: the entry stays, and an operator looks at the record.
    logEvent('record_unreadable', { kind: entry.kind, id: entry.id });
    return;
  }
  const record = found.value;
  const due = nextDue(kind, record, ctx);
  if (due === undefined || (record.due_at !== entry.at && !ignoreBackoff && due > ctx.now().toISOString())) {
    await ctx.store.remove(entry.key);
    return 'stale';
  }
  const owner = await Owner.take(kind, { record, version: found.version }, ctx);
  if (owner === null) return 'busy';
  if ((await owner.run({ ignoreBackoff })).stopped) return 'stopped';
  // The release moved the record's own entry; one that was not it goes now.
  if (record.due_at !== entry.at) await ctx.store.remove(entry.key);
  return 'done';
}

export async function runScheduled(invocation: Ctx, { ignoreBackoff = false } = {}) {
  // A receiver that failed once in this run is not tried again before the next.
  const ctx: Ctx = { ...invocation, unreachable: new Set() };
  const entries = await listDue(ctx.store, ignoreBackoff ? LAST_TIME : ctx.now(), RUN_LIMITS.entries).catch(
    (error: unknown) => {
      storeFailed(error, { kind: 'due' });
      return [];
    },
  );
  const summary = { due: entries.length, done: 0, busy: 0, stopped: 0, stale: 0 };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(RUN_LIMITS.concurrency, entries.length) }, async () => {
      while (next < entries.length && ctx.ends - ctx.mono() > RESERVE_MS) {
        const entry = entries[next++]!;
        const result = await work(ctx, entry, ignoreBackoff).catch((error: unknown) => {
          storeFailed(error, { kind: entry.kind, id: entry.id });
          return 'stopped' as const;
        });
        if (result !== undefined) summary[result]++;
      }
    }),
  );
  if (ctx.ends - ctx.mono() > RESERVE_MS) Object.assign(summary, await deleteExpired(ctx));
  logEvent('scheduled_run', summary);
  return summary;
}

/** What time deletes: each kind from the head of its time-ordered names, a batch a run. */
async function deleteExpired(ctx: Ctx) {
  const { store } = ctx;
  const now = ctx.now().getTime();
  const out: Record<string, number> = {};
  try {
    const cutoff = now - ctx.config.retentionMs;
    let requests = 0;
    for (const key of await expiredRecords(store, `${REQUESTS.prefix}/`, cutoff, RUN_LIMITS.deletions)) {
      const found = await store.read(key);
      if (!found || !REQUESTS.is(found.value)) continue;
      // Never while it owes an effect.
      if (nextDue(REQUESTS, found.value, ctx) !== undefined || !claimFree(found.value, ctx.now())) {
        logEvent('retention_kept_owed_request', { request_id: found.value.request_id });
        continue;
      }
      const owner = await Owner.take(REQUESTS, { record: found.value, version: found.version }, ctx);
      if (owner === null) continue;
      await owner.erase();
      requests++;
    }
    out['requests_deleted'] = requests;
    out['tallies_deleted'] = await deleteEnded(store, ctx.now(), RUN_LIMITS.deletions);
    Object.assign(out, await deleteExpiring(store, now, GRANT_KEEP_HOURS * 3_600_000, RUN_LIMITS.deletions));
  } catch (error) {
    storeFailed(error, { name: errorName(error) }, 'scheduled_run_error');
  }
  return out;
}
