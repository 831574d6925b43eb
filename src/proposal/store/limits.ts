/**
 * Time bounds of every call to the proposals store, written down once. The Blobs client retries
 * a 5xx or 429 five times, 5 s apart (about 25 s); the storage module answers instead, so a store
 * outage reaches the sender as a 503 within about CALL_BUDGET_MS, far inside the 60 s function
 * limit and before a person gives up on the page.
 */
export const STORE_LIMITS = {
  /** One HTTP attempt, from request to the last byte of the answer. */
  attemptTimeoutMs: 2_000,
  /** Attempts of one call when the store answers 5xx or 429 (or a read cannot connect). */
  maxAttempts: 3,
  /** Pause before the second and third attempt; a longer Retry-After than the budget left ends the call. */
  retryDelaysMs: [100, 300],
  /** One call, all attempts and pauses included. */
  callBudgetMs: 5_000,
  /** A listing, all of its pages included (the sweep's and the inbox script's scans). */
  listBudgetMs: 15_000,
  /** Conditional writes a counter tries before it reports the store as too contended. */
  counterMaxAttempts: 20,
  /**
   * Conditional writes a tally tries: every event is written (none is turned away at a limit),
   * so with N writers at once the last may lose N - 1 races.
   */
  tallyMaxAttempts: 60,
} as const;
