/**
 * The only code that talks to Netlify Blobs. Every call is bounded in time (limits.ts), retried
 * here rather than by the client, and any answer a healthy store never gives becomes
 * StoreUnavailable. Results are checked too: @netlify/blobs 11.1.1 reports any status but 412 on a
 * conditional write as `{ modified: true }` and drops an empty `onlyIfMatch` (netlify/primitives#741).
 * A conditional write whose answer is not a clear 200 or 412 (5xx, timeout, dropped connection) may
 * have landed: it is read back, never taken as a lost race (writeIf).
 */
import { getStore, type GetStoreOptions, type Store } from '@netlify/blobs';
import { STORE_LIMITS } from './limits.ts';

/** Name of the site-wide Blobs store of proposal requests; the inbox script reads it too. */
export const PROPOSALS_STORE = 'proposals';

/** A JSON object (values read back from Blobs are typed `any` by the client). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `timeout`: no complete answer within the bounds; `malformed`: an answer a healthy store never
 * gives; `contended`: a tally lost its conditional write too often; `not-configured`: no Blobs context.
 */
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

/** The version of a stored value: only this module makes one, never empty. */
export type Version = string & { readonly __brand: 'StoreVersion' };

export type WriteCondition = { ifNew: true } | { ifVersion: Version };

/** A status the client does not retry; it never leaves this module. */
const GAVE_UP_STATUS = 424;
/** Gentle on the Blobs API's rate limit. */
const SCAN_CONCURRENCY = 8;

type BlobsLocation = Pick<GetStoreOptions, 'siteID' | 'token' | 'edgeURL' | 'uncachedEdgeURL'>;
/** `fetch`: what carries the HTTP requests (tests inject faults or an in-memory store there). */
export type StoreOptions = { name?: string; location?: BlobsLocation; timeFactor?: number; fetch?: typeof fetch };

interface Trace {
  failure?: StoreFailure;
  status?: number;
  etag?: string | null;
}

/**
 * The site's proposals store, strongly consistent: from the invocation's Blobs context, or at
 * `location` (the inbox script); `name`: tests; `timeFactor` stretches STORE_LIMITS' bounds.
 */
export class ProposalsStore {
  readonly name: string;
  /** STORE_TIMEOUT_FACTOR: stretches every bound, and with them the lease (limits.ts). */
  readonly timeFactor: number;
  readonly #location: BlobsLocation | undefined;
  readonly #fetch: typeof fetch | undefined;

  constructor({ name = PROPOSALS_STORE, location, timeFactor = 1, fetch }: StoreOptions = {}) {
    this.name = name;
    this.#location = location;
    this.timeFactor = timeFactor;
    this.#fetch = fetch;
  }

  async read(key: string, deadline?: number): Promise<{ value: unknown; version: Version } | null> {
    return this.#call('read', deadline ?? this.#deadline(STORE_LIMITS.callBudgetMs), async (store) => {
      const found = await store.getWithMetadata(key, { type: 'json' });
      if (found === null) return null;
      if (!found.etag) throw new StoreUnavailable('read', 'malformed');
      return { value: found.data as unknown, version: found.etag as Version };
    });
  }

  /**
   * Writes only if the key is new (`ifNew`) or still at `ifVersion`: the new version, or null when
   * another value is there. An unclear answer is settled by reading back: our value there (every
   * value written this way is unique, e.g. by a nonce) is success; the old one still there is a
   * retry; anything else is a lost race. Unsettled within the bounds: StoreUnavailable.
   */
  async writeIf(key: string, value: unknown, condition: WriteCondition): Promise<Version | null> {
    const body = JSON.stringify(value);
    const deadline = this.#deadline(STORE_LIMITS.callBudgetMs);
    let unclear = false;
    for (let attempt = 1; ; attempt++) {
      const answer = await this.#put(key, value, condition, deadline).catch((error: unknown) => error);
      if (typeof answer === 'string') return answer as Version;
      if (answer === null && !unclear) return null;
      unclear = true;
      // The read-back gets at least one attempt's time, even when the write used up the call's.
      const found = await this.read(
        key,
        Math.max(deadline, performance.now() + STORE_LIMITS.attemptTimeoutMs * this.timeFactor),
      );
      if (found && JSON.stringify(found.value) === body) return found.version;
      const unchanged = 'ifNew' in condition ? found === null : found?.version === condition.ifVersion;
      if (answer === null || !unchanged) return null;
      if (attempt >= STORE_LIMITS.maxAttempts || !(await pause(attempt, undefined, deadline))) {
        throw answer instanceof StoreUnavailable ? answer : new StoreUnavailable('write', 'malformed', answer);
      }
    }
  }

  /** One attempt: the version, null on 412, StoreUnavailable when the answer leaves it unknown. */
  #put(key: string, value: unknown, condition: WriteCondition, deadline: number): Promise<string | null> {
    const options = 'ifNew' in condition ? { onlyIfNew: true as const } : { onlyIfMatch: condition.ifVersion };
    return this.#call('write', deadline, async (store, trace) => {
      const result = await store.setJSON(key, value, options);
      if (trace.status === 412 && !result.modified) return null;
      if (trace.status !== 200 || !result.modified || !trace.etag || result.etag !== trace.etag) {
        throw new StoreUnavailable('write', 'malformed');
      }
      return trace.etag;
    });
  }

  /** Deletes the key; deleting what is not there is no error. */
  async remove(key: string): Promise<void> {
    await this.#call('delete', this.#deadline(STORE_LIMITS.callBudgetMs), (store) => store.delete(key));
  }

  async list(prefix: string): Promise<string[]> {
    return this.listWhile(prefix, () => true);
  }

  /**
   * Keys under `prefix` in the store's (lexical) order, page by page, up to the first for which
   * `more` is false: with time-ordered names, only the head that is due is fetched.
   */
  async listWhile(prefix: string, more: (key: string) => boolean): Promise<string[]> {
    return this.#call('list', this.#deadline(STORE_LIMITS.listBudgetMs), async (store) => {
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

  /** Runs `work` on every key under `prefix`, a few at a time, until `budgetMs` is spent; counts the true results. */
  async scan(prefix: string, budgetMs: number, work: (key: string) => Promise<boolean>): Promise<number> {
    const deadline = performance.now() + budgetMs;
    const keys = await this.list(prefix);
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: Math.min(SCAN_CONCURRENCY, keys.length) }, async () => {
        while (next < keys.length && performance.now() < deadline) if (await work(keys[next++]!)) done++;
      }),
    );
    return done;
  }

  #deadline(limitMs: number): number {
    return performance.now() + limitMs * this.timeFactor;
  }

  async #call<T>(operation: string, deadline: number, run: (store: Store, trace: Trace) => Promise<T>): Promise<T> {
    const trace: Trace = {};
    const budgetMs = Math.max(0, deadline - performance.now());
    let store: Store;
    try {
      const attemptMs = STORE_LIMITS.attemptTimeoutMs * this.timeFactor;
      store = getStore({
        name: this.name,
        consistency: 'strong',
        fetch: boundedFetch(this.#fetch ?? globalThis.fetch, deadline, attemptMs, trace),
        ...this.#location,
      });
    } catch (error) {
      throw new StoreUnavailable(operation, 'not-configured', error);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const overrun = new Promise<never>((_, reject) => {
      // A margin past the deadline: the attempts end on their own first; this catches anything else.
      timer = setTimeout(() => reject(new StoreUnavailable(operation, 'timeout')), budgetMs + 250);
    });
    try {
      const result = await Promise.race([run(store, trace), overrun]);
      if (trace.failure !== undefined) throw new StoreUnavailable(operation, trace.failure);
      return result;
    } catch (error) {
      if (trace.failure !== undefined) throw new StoreUnavailable(operation, trace.failure, error);
      if (error instanceof StoreUnavailable) throw error;
      // The client threw on an answer it did not expect, or a body was not JSON.
      throw new StoreUnavailable(operation, 'malformed', error);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Each attempt bounded (body included); 5xx, 429 and a read that cannot connect retried within the
 * deadline. A write is never repeated here: it may have landed (writeIf reads back and decides).
 */
function boundedFetch(fetch: typeof globalThis.fetch, deadline: number, attemptMs: number, trace: Trace) {
  return async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const isWrite = (init?.method ?? 'GET').toUpperCase() === 'PUT';
    for (let attempt = 1; ; attempt++) {
      const left = deadline - performance.now();
      if (left <= 0) return gaveUp(trace, 'timeout');
      const signal = AbortSignal.timeout(Math.ceil(Math.min(attemptMs, left)));
      let answer: Response | undefined;
      try {
        const response = await fetch(input, { ...init, signal });
        // Inside the bound: a body that stalls or breaks off fails this attempt.
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
      const again = !isWrite && attempt < STORE_LIMITS.maxAttempts;
      if (!again || !(await pause(attempt, answer?.headers, deadline))) return gaveUp(trace);
    }
  };
}

function gaveUp(trace: Trace, failure?: StoreFailure): Response {
  if (failure !== undefined) trace.failure = failure;
  return new Response(null, { status: GAVE_UP_STATUS });
}

/** Waits before the next attempt; false when the wait the store asks for does not fit the deadline. */
async function pause(attempt: number, headers: Headers | undefined, deadline: number): Promise<boolean> {
  // Only before a retry (attempt < maxAttempts), and retryDelaysMs holds one delay per retry.
  const ms = Math.max(askedDelayMs(headers), STORE_LIMITS.retryDelaysMs[attempt - 1]!);
  if (performance.now() + ms >= deadline) return false;
  await new Promise((resolve) => setTimeout(resolve, ms));
  return true;
}

/** Retry-After (seconds or a date) or Blobs' X-RateLimit-Reset (epoch seconds), in ms from now; 0 when neither. */
function askedDelayMs(headers: Headers | undefined): number {
  const retryAfter = headers?.get('retry-after');
  if (retryAfter) {
    const seconds = Number(retryAfter);
    const at = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
    if (!Number.isNaN(at)) return Math.max(0, at);
  }
  const reset = Number(headers?.get('x-ratelimit-reset') ?? Number.NaN);
  return Number.isNaN(reset) ? 0 : Math.max(0, reset * 1000 - Date.now());
}
