/**
 * The only code that talks to Netlify Blobs. Every call is bounded in time and retried here rather
 * than by the client; an answer a healthy store never gives is StoreUnavailable. @netlify/blobs
 * 11.1.1 reports any status but 412 on a conditional write as `{ modified: true }` and drops an empty
 * `onlyIfMatch` (netlify/primitives#741), so results are checked too. A conditional write whose answer
 * is unclear (5xx, timeout, dropped connection) may have landed: it is read back, never taken as lost.
 */
import type { GetStoreOptions, Store } from '@netlify/blobs';

/** Loaded by the first store call, not by every cold start (guides, MCP listings). */
let client: Promise<typeof import('@netlify/blobs')> | undefined;

export const PROPOSALS_STORE = 'proposals';

/** Bounds of every call: an outage reaches the sender as a 503 within a call's budget, far inside the function's limit. */
export const STORE_LIMITS = {
  /** One HTTP attempt, to the last byte of the answer: a loaded local Blobs server took over 2 s. */
  attemptMs: 4_000,
  /** For 5xx and 429 (and a read that cannot connect); a write's unclear answer is read back instead. */
  maxAttempts: 3,
  retryDelaysMs: [100, 300],
  callMs: 8_000,
  listMs: 15_000,
} as const;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `timeout`: no complete answer within the bounds; `malformed`: an answer a healthy store never gives. */
export type StoreFailure =
  'server-error' | 'rate-limited' | 'timeout' | 'unreachable' | 'malformed' | 'contended' | 'not-configured';

export class StoreUnavailable extends Error {
  readonly operation: string;
  readonly reason: StoreFailure;
  constructor(operation: string, reason: StoreFailure, cause?: unknown) {
    super(`The proposals store failed on ${operation}: ${reason}.`, cause === undefined ? undefined : { cause });
    this.name = 'StoreUnavailable';
    this.operation = operation;
    this.reason = reason;
  }
}

/** A stored value's version: only this module makes one, never empty. */
export type Version = string & { readonly __brand: 'StoreVersion' };
export type WriteCondition = { ifNew: true } | { ifVersion: Version };
export type Found = { value: unknown; version: Version };

/** A status the Blobs client does not retry; it never leaves this module. */
const GAVE_UP = 424;

type Location = Pick<GetStoreOptions, 'siteID' | 'token' | 'edgeURL' | 'uncachedEdgeURL'>;
/** `fetch`: what carries the HTTP requests (tests put faults or an in-memory Blobs API there). */
export type StoreOptions = { name?: string; location?: Location; timeFactor?: number; fetch?: typeof fetch };
type Trace = { failure?: StoreFailure; status?: number; etag?: string | null };

/** The site's proposals store, strongly consistent; `timeFactor` (STORE_TIMEOUT_FACTOR) stretches every bound. */
export class ProposalsStore {
  readonly name: string;
  readonly timeFactor: number;
  readonly #options: StoreOptions;

  constructor(options: StoreOptions = {}) {
    this.name = options.name ?? PROPOSALS_STORE;
    this.timeFactor = options.timeFactor ?? 1;
    this.#options = options;
  }

  /** The longest one write attempt may take: what an owner keeps free after an effect to record it. */
  get attemptMs(): number {
    return STORE_LIMITS.attemptMs * this.timeFactor;
  }

  read(key: string, deadline = this.#deadline(STORE_LIMITS.callMs)): Promise<Found | null> {
    return this.#call('read', deadline, async (store) => {
      const found = await store.getWithMetadata(key, { type: 'json' });
      if (found === null) return null;
      if (!found.etag) throw new StoreUnavailable('read', 'malformed');
      return { value: found.data as unknown, version: found.etag as Version };
    });
  }

  /**
   * Writes if the key is new or still at `ifVersion`: the new version, or null when another value is
   * there. Every value written this way is unique, so a read-back settles an unclear answer: ours
   * there is success, the old one still there is a retry, anything else a lost race.
   */
  async writeIf(key: string, value: unknown, condition: WriteCondition): Promise<Version | null> {
    const body = JSON.stringify(value);
    const deadline = this.#deadline(STORE_LIMITS.callMs);
    let unclear = false;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.#put(key, value, condition, deadline).catch((error: unknown) => error);
      if (typeof answer === 'string') return answer as Version;
      if (answer === null && !unclear) return null;
      unclear = true;
      // The read-back gets one attempt's time even when the write used up the call's.
      const found = await this.read(key, Math.max(deadline, performance.now() + this.attemptMs));
      if (found && JSON.stringify(found.value) === body) return found.version;
      const unchanged = 'ifNew' in condition ? found === null : found?.version === condition.ifVersion;
      if (answer === null || !unchanged) return null;
      if (attempt >= STORE_LIMITS.maxAttempts || !(await pause(attempt, undefined, deadline)))
        throw answer instanceof StoreUnavailable ? answer : new StoreUnavailable('write', 'malformed', answer);
    }
  }

  /** One attempt: the version, null on 412, StoreUnavailable when the answer leaves it unknown. */
  #put(key: string, value: unknown, condition: WriteCondition, deadline: number): Promise<string | null> {
    const options = 'ifNew' in condition ? { onlyIfNew: true as const } : { onlyIfMatch: condition.ifVersion };
    return this.#call('write', deadline, async (store, trace) => {
      const result = await store.setJSON(key, value, options);
      if (trace.status === 412 && !result.modified) return null;
      if (trace.status !== 200 || !result.modified || !trace.etag || result.etag !== trace.etag)
        throw new StoreUnavailable('write', 'malformed');
      return trace.etag;
    });
  }

  /** Deleting what is not there is no error. */
  async remove(key: string): Promise<void> {
    await this.#call('delete', this.#deadline(STORE_LIMITS.callMs), (store) => store.delete(key));
  }

  /** Keys under `prefix` in lexical order, up to the first for which `more` is false: with time-ordered names, the head that is due. */
  listWhile(prefix: string, more: (key: string) => boolean = () => true): Promise<string[]> {
    return this.#call('list', this.#deadline(STORE_LIMITS.listMs), async (store) => {
      const keys: string[] = [];
      for await (const page of store.list({ prefix, paginate: true })) {
        for (const { key } of page.blobs) {
          if (!more(key)) return keys;
          keys.push(key);
        }
      }
      return keys;
    });
  }

  #deadline(ms: number): number {
    return performance.now() + ms * this.timeFactor;
  }

  async #call<T>(operation: string, deadline: number, run: (store: Store, trace: Trace) => Promise<T>): Promise<T> {
    const { getStore } = await (client ??= import('@netlify/blobs'));
    const trace: Trace = {};
    let store: Store;
    try {
      const fetch = bounded(this.#options.fetch ?? globalThis.fetch, deadline, this.attemptMs, trace);
      store = getStore({ name: this.name, consistency: 'strong', fetch, ...this.#options.location });
    } catch (error) {
      throw new StoreUnavailable(operation, 'not-configured', error);
    }
    try {
      // A margin past the deadline: the attempts end on their own first; this catches anything else.
      const result = await within(run(store, trace), Math.max(0, deadline - performance.now()) + 250);
      if (result === TIMED_OUT) throw new StoreUnavailable(operation, 'timeout');
      if (trace.failure !== undefined) throw new StoreUnavailable(operation, trace.failure);
      return result;
    } catch (error) {
      if (trace.failure !== undefined) throw new StoreUnavailable(operation, trace.failure, error);
      if (error instanceof StoreUnavailable) throw error;
      throw new StoreUnavailable(operation, 'malformed', error);
    }
  }
}

export const TIMED_OUT = Symbol('timed out');

/** `work`, or TIMED_OUT once `ms` passed: the one race against a timer of every bounded effect. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Each attempt bounded, body included; 5xx, 429 and a read that cannot connect retried. A write is never repeated here. */
function bounded(fetch: typeof globalThis.fetch, deadline: number, attemptMs: number, trace: Trace) {
  return async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const isWrite = (init?.method ?? 'GET').toUpperCase() === 'PUT';
    for (let attempt = 1; ; attempt++) {
      const left = deadline - performance.now();
      if (left <= 0) {
        trace.failure = 'timeout';
        break;
      }
      const signal = AbortSignal.timeout(Math.ceil(Math.min(attemptMs, left)));
      let answer: Response | undefined;
      try {
        const response = await fetch(input, { ...init, signal });
        const body = await response.arrayBuffer();
        answer = new Response(body.byteLength === 0 ? null : body, response);
      } catch {
        trace.failure = signal.aborted ? 'timeout' : 'unreachable';
      }
      if (answer && answer.status !== 429 && answer.status < 500) {
        delete trace.failure;
        trace.status = answer.status;
        trace.etag = answer.headers.get('etag');
        return answer;
      }
      if (answer) trace.failure = answer.status === 429 ? 'rate-limited' : 'server-error';
      if (isWrite || attempt >= STORE_LIMITS.maxAttempts || !(await pause(attempt, answer?.headers, deadline))) break;
    }
    return new Response(null, { status: GAVE_UP });
  };
}

/** Waits before the next attempt; false when the wait the store asks for does not fit the deadline. */
async function pause(attempt: number, headers: Headers | undefined, deadline: number): Promise<boolean> {
  const ms = Math.max(askedDelayMs(headers), STORE_LIMITS.retryDelaysMs[attempt - 1] ?? 0);
  if (performance.now() + ms >= deadline) return false;
  await new Promise((resolve) => setTimeout(resolve, ms));
  return true;
}

/** Retry-After (seconds or a date) or Blobs' X-RateLimit-Reset (epoch seconds), in ms from now. */
function askedDelayMs(headers: Headers | undefined): number {
  const retryAfter = headers?.get('retry-after');
  const at = retryAfter ? (Number.isNaN(Number(retryAfter)) ? Date.parse(retryAfter) - Date.now() : Number(retryAfter) * 1000) : NaN; // prettier-ignore
  if (!Number.isNaN(at)) return Math.max(0, at);
  const reset = Number(headers?.get('x-ratelimit-reset') ?? NaN);
  return Number.isNaN(reset) ? 0 : Math.max(0, reset * 1000 - Date.now());
}
