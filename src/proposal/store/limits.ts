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
 * THE LEASE RULE (its one home). A lease is a deadline written in the request's record: every write
 * of its owner sets it to the write's start + leaseMs. An owner starts an effect that must happen once
 * (the CRM delivery, an email) only while its last confirmed deadline leaves `effectMs` plus one write
 * to record the effect (leftNeededMs). A write ends within WRITE_BOUND_MS, so right after one there is
 * always enough: leaseMs = effect + two writes. `effectMs` is the longest effect (the CRM timeout or
 * the SMTP timeouts); store times stretch with STORE_TIMEOUT_FACTOR. At the defaults (8 s CRM, factor 1)
 * a lease is 8 + 2 × 12 = 32 s; a lease whose owner died (or whose last write stayed unknown) is free
 * after that, so a 503's Retry-After (contract/idempotency-rules.ts) need not outlast it: the retry
 * waits or gets 409 with the seconds left.
 */
export const leaseMs = (timeFactor: number, effectMs: number) => effectMs + 2 * WRITE_BOUND_MS * timeFactor;
export const leftNeededMs = (timeFactor: number, effectMs: number) => effectMs + WRITE_BOUND_MS * timeFactor;

/**
 * Most STORE_TIMEOUT_FACTOR may stretch the bounds. `npm start` and `npm run dev` set 4: there
 * netlify-cli serves Blobs from the process that starts every invocation, so on a busy machine its
 * answers wait for the CPU (20 simultaneous cold submits at load 37 went past 4 s).
 */
export const MAX_TIME_FACTOR = 10;
