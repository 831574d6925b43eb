/**
 * The owed-work engine: a record (a request, a job) owes steps; the engine records what each attempt
 * came to. One owner at a time holds a record's claim, ending with its invocation, checks before each
 * effect that it and the write recording it still fit, and writes only on its own last version: an
 * effect repeats only when the write recording it was lost (receivers dedupe on stable ids).
 */
import { randomUUID } from 'node:crypto';
import { StoreUnavailable, type ProposalsStore, type Version, type WriteCondition } from '../store/blobs.ts';
import { logEvent } from '../log.ts';
import { markDue, unmarkDue } from './due.ts';

/** A step still failing `giveUpAfterMs` after its first attempt gives up. */
export type RetryPolicy = { firstMs: number; factor: number; capMs: number; giveUpAfterMs: number };

/** The wait before attempt `attempts + 1`: first·factor^(n−1), capped, never below what the other side asked. */
const retryDelayMs = (policy: RetryPolicy, attempts: number, askedMs = 0) =>
  Math.max(Math.min(policy.firstMs * policy.factor ** Math.max(0, attempts - 1), policy.capMs), askedMs);

/** `done`: what to record (null erases the record); `retry`: try again later; `failed`: refused for good. */
export type Outcome<R> =
  | { done: (r: R) => R | null }
  | { retry: true; afterMs?: number; reason?: string; note?: (r: R) => R }
  | { failed: (r: R) => R };

type StepWork = { attempts: number; since: string; next_at?: string };
/** What the engine keeps on a record: the claim's end, each step's attempts, the due entry, a nonce per write. */
export type Owned = { claim?: { until: string }; work?: Record<string, StepWork>; due_at?: string; written?: string };

/** What the engine needs of an invocation; `mono` is monotonic ms, `ends` when (in it) the invocation ends. */
export interface WorkTime {
  store: ProposalsStore;
  retry: RetryPolicy;
  now: () => Date;
  mono: () => number;
  ends: number;
  /** The longest any one claim may run. */
  limitMs: number;
}

export interface Step<R extends Owned, C extends WorkTime> {
  name: string;
  /** False when not owed; a time (ISO) not to run before; true when owed now. */
  owed(r: R, ctx: C): boolean | string;
  /** Counting and rendering, then `owner.beforeEffect(bound)` right before the effect, and what came of it. */
  run(r: R, ctx: C, owner: Owner<R, C>): Promise<Outcome<R>>;
  /** What giving up by age records (the kind's onGiveUp follows). */
  gaveUp?(r: R, ctx: C): R;
}

export interface Kind<R extends Owned, C extends WorkTime> {
  /** Records are `<prefix>/<id>`. */
  prefix: string;
  is(value: unknown): value is R;
  id(r: R): string;
  steps: readonly Step<R, C>[];
  /** After a step gave up or failed: sales are owed an alert (requests); jobs only log it. */
  onGiveUp(r: R, step: string, ctx: C): R;
  /** What goes with an erased record (a request's key pointer). */
  erase?(r: R, ctx: C): Promise<void>;
}

/** The claim was taken over, or an effect no longer fits the time left: stop before any further effect. */
class ClaimLost extends Error {
  override readonly name = 'ClaimLost';
  readonly why: 'taken' | 'out-of-time';
  constructor(why: 'taken' | 'out-of-time') {
    super(`The claim was lost (${why}).`);
    this.why = why;
  }
}

/** How far two instances' clocks may differ: an owner stops this much before the deadline others read. */
export const CLOCK_SKEW_MS = 5_000;

export const claimFree = (r: Owned, now: Date) => r.claim === undefined || Date.parse(r.claim.until) <= now.getTime();
/** When a step may run: the later of its own earliest time and its next attempt ('' for now). */
const stepDue = (owed: true | string, work: StepWork | undefined, ignoreBackoff = false) =>
  [owed === true ? '' : owed, ignoreBackoff ? '' : (work?.next_at ?? '')].sort()[1]!;

/** When a step of `r` is next due, now at the earliest; undefined when it owes nothing. */
export function nextDue<R extends Owned, C extends WorkTime>(kind: Kind<R, C>, r: R, ctx: C): string | undefined {
  const now = ctx.now().toISOString();
  const times = kind.steps.flatMap((s) => {
    const owed = s.owed(r, ctx);
    return owed === false ? [] : [stepDue(owed, r.work?.[s.name])];
  });
  const first = times.sort()[0];
  return first === undefined || first > now ? first : now;
}

export class Owner<R extends Owned, C extends WorkTime> {
  #record: R;
  #version: Version;
  readonly kind: Kind<R, C>;
  readonly ctx: C;
  /** Monotonic ms after which this owner starts no effect. */
  readonly ends: number;

  private constructor(kind: Kind<R, C>, ctx: C, record: R, version: Version, ends: number) {
    this.kind = kind;
    this.ctx = ctx;
    this.ends = ends;
    this.#record = record;
    this.#version = version;
  }

  /** Stores a new record with its claim, its due entry first: null when it is there already. */
  static async create<R extends Owned, C extends WorkTime>(kind: Kind<R, C>, record: R, ctx: C) {
    const at = ctx.now().toISOString();
    await markDue(ctx.store, at, kind.prefix, kind.id(record));
    return Owner.#claim(kind, ctx, { ...record, due_at: at }, { ifNew: true });
  }

  /** Takes the claim of a stored record if it is free, with `change` in the same write: null when busy or moved. */
  static async take<R extends Owned, C extends WorkTime>(
    kind: Kind<R, C>,
    found: { record: R; version: Version },
    ctx: C,
    change: (r: R) => R = (r) => r,
  ) {
    if (!claimFree(found.record, ctx.now())) return null;
    let r = change(found.record);
    // Work the change makes owed sooner than the record's entry says gets an entry of its own first.
    const at = nextDue(kind, r, ctx);
    if (at !== undefined && (r.due_at === undefined || at < r.due_at)) {
      await markDue(ctx.store, at, kind.prefix, kind.id(r));
      r = { ...r, due_at: at };
    }
    return Owner.#claim(kind, ctx, r, { ifVersion: found.version });
  }

  static async #claim<R extends Owned, C extends WorkTime>(kind: Kind<R, C>, ctx: C, r: R, condition: WriteCondition) {
    const started = ctx.mono();
    const runs = Math.min(ctx.ends - started, ctx.limitMs);
    const until = new Date(ctx.now().getTime() + runs).toISOString();
    const claimed = { ...r, claim: { until }, written: randomUUID() };
    const version = await ctx.store.writeIf(`${kind.prefix}/${kind.id(r)}`, claimed, condition);
    return version === null ? null : new Owner(kind, ctx, claimed, version, started + runs - CLOCK_SKEW_MS);
  }

  /** The record as the store last confirmed it: a reply claims no more. */
  get record(): R {
    return this.#record;
  }

  /** Right before an effect bounded by `boundMs`: it and one write recording it must fit before the claim ends. */
  beforeEffect(boundMs: number): void {
    if (this.ends - this.ctx.mono() < boundMs + this.ctx.store.attemptMs) throw new ClaimLost('out-of-time');
  }

  /** Stores `r` under the claim (given up with `release`); ClaimLost when another owner wrote meanwhile. */
  async save(r: R, release = false): Promise<R> {
    const { claim: _claim, ...rest } = r;
    const next = { ...rest, ...(!release && { claim: this.#record.claim }), written: randomUUID() } as R;
    const key = `${this.kind.prefix}/${this.kind.id(r)}`;
    const version = await this.ctx.store.writeIf(key, next, { ifVersion: this.#version });
    if (version === null) throw new ClaimLost('taken');
    this.#version = version;
    this.#record = next;
    return next;
  }

  /**
   * Runs the owed, due steps in order, then gives the claim up; `reached` gets the stored record once the
   * first `replyAfter` steps are done. `stopped` says why it stopped early (the next owner goes on).
   */
  async run(
    options: { ignoreBackoff?: boolean; replyAfter?: number; reached?: (r: R) => void } = {},
  ): Promise<{ record: R | null; stopped?: ClaimLost | StoreUnavailable }> {
    const { kind, ctx } = this;
    try {
      for (const [index, step] of kind.steps.entries()) {
        if (index === options.replyAfter) options.reached?.(this.#record);
        const owed = step.owed(this.#record, ctx);
        if (owed === false) continue;
        if (stepDue(owed, this.#record.work?.[step.name], options.ignoreBackoff) > ctx.now().toISOString()) continue;
        const next = this.#recorded(step, await step.run(this.#record, ctx, this));
        if (next === null) return { record: await this.erase() };
        await this.save(next);
      }
      if (options.replyAfter === kind.steps.length) options.reached?.(this.#record);
      return { record: await this.#release() };
    } catch (error) {
      if (!(error instanceof ClaimLost || error instanceof StoreUnavailable)) {
        // A programming error: the claim is given up so nobody waits for it, and the error surfaces.
        await this.#release().catch(() => undefined);
        throw error;
      }
      const fields = { kind: kind.prefix, id: kind.id(this.#record) };
      if (error instanceof ClaimLost) logEvent('claim_lost', { ...fields, why: error.why });
      else logEvent('store_unavailable', { ...fields, operation: error.operation, reason: error.reason });
      // Out of time, the claim still ours: given up now, so the next run need not wait for it.
      if (error instanceof ClaimLost && error.why === 'out-of-time') await this.#release().catch(() => undefined);
      return { record: this.#record, stopped: error };
    }
  }

  /** The step's outcome recorded; the engine keeps the attempts, the next time and giving up. */
  #recorded(step: Step<R, C>, outcome: Outcome<R>): R | null {
    const { kind, ctx } = this;
    const r = this.#record;
    const { [step.name]: work, ...others } = r.work ?? {};
    const settled = (next: R): R => ({ ...next, work: others });
    if ('done' in outcome) {
      const next = outcome.done(r);
      return next === null ? null : settled(next);
    }
    const fields = { kind: kind.prefix, id: kind.id(r), step: step.name };
    if ('failed' in outcome) {
      logEvent('step_failed', fields);
      return kind.onGiveUp(settled(outcome.failed(r)), step.name, ctx);
    }
    const now = ctx.now().getTime();
    const attempts = (work?.attempts ?? 0) + 1;
    const since = work?.since ?? new Date(now).toISOString();
    if (now - Date.parse(since) >= ctx.retry.giveUpAfterMs) {
      logEvent('step_given_up', { ...fields, attempts });
      return kind.onGiveUp(settled(step.gaveUp?.(r, ctx) ?? r), step.name, ctx);
    }
    logEvent('step_retry', { ...fields, attempts, ...(outcome.reason !== undefined && { reason: outcome.reason }) });
    // The last attempt comes when the step gives up (the alert on time), unless the other side asked to wait longer.
    const giveUpAt = Math.max(Date.parse(since) + ctx.retry.giveUpAfterMs, now + (outcome.afterMs ?? 0));
    const next = Math.min(now + retryDelayMs(ctx.retry, attempts, outcome.afterMs), giveUpAt);
    const next_at = new Date(next).toISOString();
    return { ...(outcome.note?.(r) ?? r), work: { ...others, [step.name]: { attempts, since, next_at } } };
  }

  /** Gives the claim up; the due entry follows the record's next due time, the new one written first. */
  async #release(): Promise<R> {
    const { kind, ctx } = this;
    const { store } = ctx;
    const r = this.#record;
    const due = nextDue(kind, r, ctx);
    if (due !== undefined && due !== r.due_at) await markDue(store, due, kind.prefix, kind.id(r));
    const { due_at: old, ...rest } = r;
    const saved = await this.save({ ...rest, ...(due !== undefined && { due_at: due }) } as R, true);
    if (old !== undefined && old !== due) await unmarkDue(store, old, kind.prefix, kind.id(r)).catch(() => undefined);
    return saved;
  }

  /** Erases the record under the claim, with what goes with it. */
  async erase(): Promise<null> {
    const { kind, ctx } = this;
    const r = this.#record;
    await kind.erase?.(r, ctx);
    await ctx.store.remove(`${kind.prefix}/${kind.id(r)}`);
    if (r.due_at !== undefined) await unmarkDue(ctx.store, r.due_at, kind.prefix, kind.id(r)).catch(() => undefined);
    return null;
  }
}
