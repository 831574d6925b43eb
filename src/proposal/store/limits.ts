/**
 * Bounds of every store call: an outage reaches the sender as a 503 within callBudgetMs, far inside
 * the 60 s function limit (the Blobs client would retry five times, 5 s apart). An attempt gets 4 s:
 * a loaded local Blobs server took over 2 s, and a slow store must not be taken for a failed one.
 */
export const STORE_LIMITS = {
  /** One HTTP attempt, from request to the last byte of the answer. */
  attemptTimeoutMs: 4_000,
  /** When the store answers 5xx or 429 (or a read cannot connect); a write's unclear answer is read back first. */
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

/** The longest a conditional write takes: its call budget, and one attempt more to read back an unclear answer. */
export const WRITE_BOUND_MS = STORE_LIMITS.callBudgetMs + STORE_LIMITS.attemptTimeoutMs;

/**
 * How far the clocks of two instances may differ. A lease's deadline is wall time, read by other
 * instances; its owner measures what is left on its own monotonic clock and ends its lease this much
 * before the deadline, so an instance whose clock runs ahead never takes a lease still in use.
 */
export const CLOCK_SKEW_MS = 5_000;

/**
 * THE LEASE RULE (its one home). A lease is a deadline written in the request's record: every write
 * of its owner sets it to the write's start + leaseMs. An owner starts an effect that must happen once
 * (the CRM delivery, an email, a chat post) only while what is left of its lease, on its monotonic
 * clock and less CLOCK_SKEW_MS, covers that effect's bound plus one write to record it (leftNeededMs);
 * it checks right before the effect, after any counting or rendering. A write ends within
 * WRITE_BOUND_MS, so right after one there is always enough: leaseMs = the longest effect bound + two
 * writes + the skew margin. Every effect is raced against its bound (the CRM, SMTP and chat timeouts),
 * store times stretch with STORE_TIMEOUT_FACTOR. At the defaults (10 s SMTP, factor 1) a lease is
 * 10 + 2 × 12 + 5 = 39 s; a lease whose owner died (or whose last write stayed unknown) is free after
 * that, so a 503's Retry-After (contract/idempotency-rules.ts) need not outlast it: the retry waits or
 * gets 409 with the seconds left.
 */
export const leaseMs = (timeFactor: number, effectMs: number) =>
  effectMs + 2 * WRITE_BOUND_MS * timeFactor + CLOCK_SKEW_MS;
export const leftNeededMs = (timeFactor: number, effectMs: number) => effectMs + WRITE_BOUND_MS * timeFactor;

/**
 * Most STORE_TIMEOUT_FACTOR may stretch the bounds. `npm start` and `npm run dev` set 4: there
 * netlify-cli serves Blobs from the process that starts every invocation, so on a busy machine its
 * answers wait for the CPU (20 simultaneous cold submits at load 37 went past 4 s).
 */
export const MAX_TIME_FACTOR = 10;
