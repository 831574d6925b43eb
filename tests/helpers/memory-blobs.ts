/**
 * The Netlify Blobs HTTP API in memory, as a `fetch` for ProposalsStore (as @netlify/blobs's own tests
 * inject theirs): strongly consistent, atomic conditional writes, ETags, paginated sorted listings.
 * It counts what it served, so a test can show how much work a scheduled run did. faultyFetch wraps any
 * fetch to make chosen conditional writes fail before or after they land, answer late, or hang.
 */
import { randomUUID } from 'node:crypto';
import { ProposalsStore } from '../../src/proposal/store/blobs.ts';

const PAGE = 1000;

export interface MemoryBlobs {
  fetch: typeof fetch;
  /** name → (key → [etag, body]) */
  stores: Map<string, Map<string, { etag: string; body: string }>>;
  counts: { reads: number; writes: number; deletes: number; listPages: number; listedKeys: number };
  /** A store over this memory; `fetch` (e.g. a faultyFetch around this one) carries its requests. */
  store(options?: { fetch?: typeof fetch; timeFactor?: number; name?: string }): ProposalsStore;
}

export function memoryBlobs(): MemoryBlobs {
  const stores: MemoryBlobs['stores'] = new Map();
  const counts = { reads: 0, writes: 0, deletes: 0, listPages: 0, listedKeys: 0 };
  /** Each store's keys in order, made again after a change. */
  const sorted = new Map<string, string[]>();
  let version = 0;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const [, , scoped = '', ...rest] = url.pathname.split('/');
    // A site store is addressed as `site:<name>`.
    const storeName = decodeURIComponent(scoped).replace(/^site:/, '');
    const key = rest.map(decodeURIComponent).join('/');
    const blobs = stores.get(storeName) ?? new Map<string, { etag: string; body: string }>();
    stores.set(storeName, blobs);
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    if (key === '') {
      counts.listPages++;
      const prefix = url.searchParams.get('prefix') ?? '';
      const after = url.searchParams.get('cursor') ?? '';
      let keys = sorted.get(storeName);
      if (keys === undefined) sorted.set(storeName, (keys = [...blobs.keys()].sort()));
      // The first key past the cursor and the prefix, by binary search: 100,000 keys list quickly.
      const from = after > prefix ? after : prefix;
      let lo = 0;
      for (let hi = keys.length; lo < hi;) {
        const mid = (lo + hi) >> 1;
        if (keys[mid]! < from || (keys[mid] === after && after !== '')) lo = mid + 1;
        else hi = mid;
      }
      const page: string[] = [];
      for (let i = lo; i < keys.length && page.length <= PAGE && keys[i]!.startsWith(prefix); i++) page.push(keys[i]!);
      const more = page.length > PAGE;
      if (more) page.pop();
      counts.listedKeys += page.length;
      const body = {
        blobs: page.map((k) => ({ key: k, etag: blobs.get(k)!.etag, size: 1, last_modified: '' })),
        directories: [],
        ...(more && { next_cursor: page.at(-1) }),
      };
      return Response.json(body);
    }
    const found = blobs.get(key);
    if (method === 'GET' || method === 'HEAD') {
      counts.reads++;
      if (!found) return new Response(null, { status: 404 });
      return new Response(method === 'HEAD' ? null : found.body, { status: 200, headers: { etag: found.etag } });
    }
    if (method === 'DELETE') {
      counts.deletes++;
      if (blobs.delete(key)) sorted.delete(storeName);
      return new Response(null, { status: 204 });
    }
    counts.writes++;
    const ifMatch = headers.get('if-match');
    const ifNone = headers.get('if-none-match');
    if ((ifMatch !== null && found?.etag !== ifMatch) || (ifNone === '*' && found !== undefined)) {
      return new Response(null, { status: 412 });
    }
    const etag = `"v${++version}"`;
    if (!blobs.has(key)) sorted.delete(storeName);
    // The client sends JSON as a string (setJSON).
    blobs.set(key, { etag, body: typeof init?.body === 'string' ? init.body : '' });
    return new Response(null, { status: 200, headers: { etag } });
  };
  const location = {
    siteID: 'memory-site',
    token: 'memory',
    edgeURL: 'http://blobs.memory',
    uncachedEdgeURL: 'http://blobs.memory',
  };
  return {
    fetch,
    stores,
    counts,
    store: (options = {}) =>
      new ProposalsStore({
        name: options.name ?? `memory-${randomUUID()}`,
        location,
        fetch: options.fetch ?? fetch,
        ...(options.timeFactor !== undefined && { timeFactor: options.timeFactor }),
      }),
  };
}

/** What happens to one conditional write: it lands or not, and how its answer comes back. */
export type WriteFault =
  | 'error-before' // 503, not forwarded
  | 'error-after' // forwarded (it lands), then 503
  | 'drop-before' // connection fails, not forwarded
  | 'drop-after' // forwarded, then the connection fails
  | 'hang' // not forwarded, never answered
  | { lateMs: number } // forwarded, answered after lateMs
  | { slowMs: number }; // forwarded after slowMs (a slow store: the write lands late)

export const WRITE_FAULTS: WriteFault[] = [
  'error-before',
  'error-after',
  'drop-before',
  'drop-after',
  'hang',
  { lateMs: 0 },
];

/**
 * Numbers conditional writes (PUT with If-Match or If-None-Match) from 1 and applies `plan(n)` to each;
 * `writes` counts them. Other requests pass through.
 */
export function faultyFetch(inner: typeof fetch, plan: (n: number) => WriteFault | undefined) {
  const state = { writes: 0 };
  const aborted = (signal: AbortSignal | null | undefined) =>
    new Promise<never>((_, reject) => {
      const fail = () => reject(new DOMException('aborted', 'AbortError'));
      if (signal?.aborted) fail();
      signal?.addEventListener('abort', fail, { once: true });
    });
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const conditional =
      (init?.method ?? 'GET').toUpperCase() === 'PUT' && (headers.has('if-match') || headers.has('if-none-match'));
    if (!conditional) return inner(input, init);
    const fault = plan(++state.writes);
    if (fault === undefined) return inner(input, init);
    if (fault === 'error-before') return new Response('unavailable', { status: 503 });
    if (fault === 'drop-before') throw new TypeError('fetch failed');
    if (fault === 'hang') return aborted(init?.signal);
    if (typeof fault === 'object' && 'slowMs' in fault) {
      await Promise.race([new Promise((resolve) => setTimeout(resolve, fault.slowMs)), aborted(init?.signal)]);
      return inner(input, init);
    }
    const answer = await inner(input, init);
    if (fault === 'error-after') return new Response('unavailable', { status: 503 });
    if (fault === 'drop-after') throw new TypeError('fetch failed');
    await Promise.race([new Promise((resolve) => setTimeout(resolve, fault.lateMs)), aborted(init?.signal)]);
    return answer;
  };
  return { fetch, state };
}
