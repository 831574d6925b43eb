/**
 * Time bounds of every call to the proposals store, written down once. The Blobs client would
 * retry a 5xx or 429 five times, 5 s apart; the store answers instead, so an outage reaches the
 * sender as a 503 within callBudgetMs, far inside the 60 s function limit. An attempt gets 4 s,
 * not less: on a loaded 2-core machine the local Blobs server of `npm start` took over 2 s to
 * answer 20 simultaneous cold invocations, and a slow store must not be taken for a failed one.
 */
export const STORE_LIMITS = {
  /** One HTTP attempt, from request to the last byte of the answer. */
  attemptTimeoutMs: 4_000,
  /** Attempts of one call when the store answers 5xx or 429 (or a read cannot connect). */
  maxAttempts: 3,
  /** Pause before the second and third attempt; a longer Retry-After than the budget left ends the call. */
  retryDelaysMs: [100, 300],
  /** One call, all attempts and pauses included. */
  callBudgetMs: 8_000,
  /** A listing, all of its pages included (the sweep's and the inbox script's scans). */
  listBudgetMs: 15_000,
  /** Conditional writes a tally tries: with N writers at once the last may lose N - 1 races. */
  tallyMaxAttempts: 60,
} as const;

export type TimeBounds = Record<'attemptTimeoutMs' | 'callBudgetMs' | 'listBudgetMs', number>;

/** Most STORE_TIMEOUT_FACTOR may stretch the bounds. */
export const MAX_TIME_FACTOR = 10;

/**
 * The bounds times `factor` (STORE_TIMEOUT_FACTOR). `npm start` and `npm run dev` set 4: there
 * netlify-cli serves Blobs from the same process that starts every function invocation, so on a
 * busy machine its answers wait for the CPU (20 simultaneous cold submits at load 37 went past 4 s).
 */
export function timeBounds(factor = 1): TimeBounds {
  return {
    attemptTimeoutMs: STORE_LIMITS.attemptTimeoutMs * factor,
    callBudgetMs: STORE_LIMITS.callBudgetMs * factor,
    listBudgetMs: STORE_LIMITS.listBudgetMs * factor,
  };
}
