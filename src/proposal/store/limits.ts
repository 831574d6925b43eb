/**
 * Bounds of every store call: an outage reaches the sender as a 503 within callBudgetMs, far inside
 * the 60 s function limit (the Blobs client would retry five times, 5 s apart). An attempt gets 4 s:
 * a loaded local Blobs server took over 2 s, and a slow store must not be taken for a failed one.
 */
export const STORE_LIMITS = {
  /** One HTTP attempt, from request to the last byte of the answer. */
  attemptTimeoutMs: 4_000,
  /** When the store answers 5xx or 429 (or a read cannot connect). */
  maxAttempts: 3,
  /** A longer Retry-After than the budget left ends the call. */
  retryDelaysMs: [100, 300],
  /** One call, all attempts and pauses included. */
  callBudgetMs: 8_000,
  /** A listing, all of its pages included. */
  listBudgetMs: 15_000,
  /** Conditional writes a tally tries: with N writers at once the last may lose N - 1 races. */
  tallyMaxAttempts: 60,
} as const;

/**
 * Most STORE_TIMEOUT_FACTOR may stretch the bounds. `npm start` and `npm run dev` set 4: there
 * netlify-cli serves Blobs from the process that starts every invocation, so on a busy machine its
 * answers wait for the CPU (20 simultaneous cold submits at load 37 went past 4 s).
 */
export const MAX_TIME_FACTOR = 10;
