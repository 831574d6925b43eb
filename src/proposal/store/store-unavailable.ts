/** The one error the storage module throws when the store did not answer as it must. */

/**
 * - `server-error`: 5xx after every attempt; `rate-limited`: 429 after every attempt;
 * - `timeout`: no complete answer within the attempt or call bound;
 * - `unreachable`: no connection, or the connection dropped;
 * - `malformed`: an answer the store never gives when healthy (a write without an ETag, a status
 *   it does not document, a body that is not the JSON written);
 * - `contended`: a counter lost its conditional write more often than STORE_LIMITS allows;
 * - `not-configured`: no Blobs context in this process.
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
