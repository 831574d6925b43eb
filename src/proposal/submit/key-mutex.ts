/**
 * In-process, per-key mutual exclusion.
 *
 * Why: in production the conditional writes of Netlify Blobs (If-None-Match / If-Match) make
 * claiming an Idempotency-Key atomic. The local BlobsServer used by `netlify serve` and the
 * tests checks those headers and then writes with awaits in between, and derives ETags from
 * file mtimes, so two requests in one process can both "win". Serialising the short
 * read-check-write steps for one key inside the process closes that gap locally; it is not
 * what production correctness relies on.
 */
const tails = new Map<string, Promise<void>>();

export async function withKeyMutex<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  const { promise: done, resolve: release } = Promise.withResolvers<void>();
  const tail = previous.then(() => done);
  tails.set(key, tail);
  await previous;
  try {
    return await work();
  } finally {
    release();
    // Drop the entry once nobody queued behind us, so the map does not grow per key forever.
    if (tails.get(key) === tail) tails.delete(key);
  }
}
