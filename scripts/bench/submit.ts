/**
 * Item 4: `submit` into the default inbox CRM, stored in a real local Netlify Blobs server
 * (local-blobs.ts).
 * CRM_PROVIDER, SMTP_URL and MAIL_FROM are unset by the parent, so a 201 means the request is
 * stored durably and its status is 'received'.
 *
 * Note: the BlobsServer runs in this same process (as in the tests), so every figure includes
 * the server's work on the same event loop.
 *
 * Run by scripts/bench.ts in a fresh process: node scripts/bench/submit.ts
 */
import { randomUUID } from 'node:crypto';
import { startLocalBlobs } from './local-blobs.ts';
import { handBack, progress } from './process.ts';
import { int, ms, summarize, table, type Summary } from './stats.ts';

export const WARMUP = 20;
export const SEQUENTIAL = 300;
export const CONCURRENT = 1000;
export const CONCURRENCY = 16;
export const REPLAYS = 300;
/** Shared keys: rounds of SHARED_CLIENTS simultaneous submits spread over SHARED_KEYS keys. */
export const SHARED_ROUNDS = 20;
export const SHARED_CLIENTS = 20;
export const SHARED_KEYS = 5;
const API = 'http://127.0.0.1/api/proposal';

export interface SubmitResult {
  sequential: Summary;
  sequentialStatuses: Record<string, number>;
  /** Requests the Blobs client sent per sequential submit, by method. */
  blobRequestsPerSubmit: Record<string, number>;
  concurrent: {
    keys: number;
    concurrency: number;
    elapsedMs: number;
    accepted201: number;
    acceptedPerSecond: number;
    statuses: Record<string, number>;
    latency: Summary;
  };
  shared: {
    rounds: number;
    clients: number;
    keysPerRound: number;
    elapsedMs: number;
    latency: Summary;
    statuses: Record<string, number>;
    /** Keys whose replies carried more than one request_id (exactly once says 0). */
    keysWithSeveralRequestIds: number;
  };
  replay: Summary;
  replayStatuses: Record<string, number>;
  replayedHeader: number;
  blobRequestsPerReplay: Record<string, number>;
  storedReceived: number;
  /** Request records listed in the store after the run, and the distinct keys sent. */
  storedRecords: number;
  distinctKeys: number;
}

type Handler = (req: Request) => Promise<Response>;

/** Counts the Blobs client's HTTP requests (it calls globalThis.fetch at request time). */
const fetchCounts = new Map<string, number>();
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  fetchCounts.set(method, (fetchCounts.get(method) ?? 0) + 1);
  return realFetch(input, init);
};

function perCall(counts: Map<string, number>, calls: number): Record<string, number> {
  const out: Record<string, number> = {};
  let total = 0;
  for (const [method, n] of [...counts].sort()) {
    out[method] = n / calls;
    total += n;
  }
  out['total'] = total / calls;
  return out;
}

function tally(into: Record<string, number>, key: string | number): void {
  into[String(key)] = (into[String(key)] ?? 0) + 1;
}

async function main(): Promise<void> {
  for (const name of ['CRM_PROVIDER', 'SMTP_URL', 'MAIL_FROM']) delete process.env[name];
  const { getStore } = await import('@netlify/blobs');
  const blobs = await startLocalBlobs('blobs');

  try {
    const { default: handler } = (await import('../../netlify/functions/proposal.mts')) as { default: Handler };
    const { EXAMPLE_REQUESTS } = await import('../../src/contract/contract.ts');
    const { PROPOSALS_STORE } = await import('../../src/proposal/store/blobs.ts');
    const RECORDS_PREFIX = `${(await import('../../src/proposal/submit/record.ts')).REQUESTS_PREFIX}/`;
    const body = JSON.stringify(EXAMPLE_REQUESTS.submit);

    const submit = async (
      key: string,
    ): Promise<{ ms: number; status: number; replayed: boolean; state: unknown; requestId?: unknown }> => {
      const started = performance.now();
      const res = await handler(
        new Request(API, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body,
        }),
      );
      const reply = (await res.json()) as { status?: unknown; request_id?: unknown };
      return {
        ms: performance.now() - started,
        status: res.status,
        replayed: res.headers.get('idempotent-replayed') === 'true',
        state: reply.status,
        requestId: reply.request_id,
      };
    };

    progress(`submit: ${WARMUP} warm-up submits`);
    for (let i = 0; i < WARMUP; i++) await submit(`bench-warmup-${i}-${randomUUID()}`);

    progress(`submit: ${SEQUENTIAL} sequential submits`);
    const seqKeys = Array.from({ length: SEQUENTIAL }, (_, i) => `bench-seq-${i}-${randomUUID()}`);
    const seqTimes: number[] = [];
    const seqStatuses: Record<string, number> = {};
    let storedReceived = 0;
    fetchCounts.clear();
    for (const key of seqKeys) {
      const r = await submit(key);
      seqTimes.push(r.ms);
      tally(seqStatuses, r.status);
      if (r.status === 201 && r.state === 'received') storedReceived++;
    }
    const blobRequestsPerSubmit = perCall(fetchCounts, SEQUENTIAL);

    progress(`submit: ${CONCURRENT} distinct keys, concurrency ${CONCURRENCY}`);
    const concKeys = Array.from({ length: CONCURRENT }, (_, i) => `bench-conc-${i}-${randomUUID()}`);
    const concStatuses: Record<string, number> = {};
    const concTimes: number[] = [];
    let next = 0;
    let accepted = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < concKeys.length) {
          const key = concKeys[next++] as string;
          const r = await submit(key);
          concTimes.push(r.ms);
          tally(concStatuses, r.status);
          if (r.status === 201) accepted++;
        }
      }),
    );
    const elapsedMs = performance.now() - started;

    progress(`submit: ${SHARED_ROUNDS} rounds of ${SHARED_CLIENTS} simultaneous clients sharing ${SHARED_KEYS} keys`);
    const sharedTimes: number[] = [];
    const sharedStatuses: Record<string, number> = {};
    let keysWithSeveralRequestIds = 0;
    const sharedStarted = performance.now();
    for (let round = 0; round < SHARED_ROUNDS; round++) {
      const keys = Array.from({ length: SHARED_KEYS }, (_, i) => `bench-shared-${round}-${i}-${randomUUID()}`);
      const replies = await Promise.all(
        Array.from({ length: SHARED_CLIENTS }, (_, client) => submit(keys[client % SHARED_KEYS] as string)),
      );
      for (const r of replies) {
        sharedTimes.push(r.ms);
        tally(sharedStatuses, r.status);
      }
      for (let i = 0; i < SHARED_KEYS; i++) {
        const ids = new Set(replies.filter((_, client) => client % SHARED_KEYS === i).map((r) => r.requestId));
        if (ids.size !== 1) keysWithSeveralRequestIds++;
      }
    }
    const sharedElapsedMs = performance.now() - sharedStarted;

    progress(`submit: ${REPLAYS} idempotent replays (same key and body again)`);
    const replayTimes: number[] = [];
    const replayStatuses: Record<string, number> = {};
    let replayedHeader = 0;
    fetchCounts.clear();
    for (const key of seqKeys.slice(0, REPLAYS)) {
      const r = await submit(key);
      replayTimes.push(r.ms);
      tally(replayStatuses, r.status);
      if (r.replayed) replayedHeader++;
    }
    const blobRequestsPerReplay = perCall(fetchCounts, REPLAYS);

    // Through the store itself: one request record per distinct key (warm-up + sequential + concurrent).
    const { blobs } = await getStore({ name: PROPOSALS_STORE, consistency: 'strong' }).list({ prefix: RECORDS_PREFIX });

    const result: SubmitResult = {
      sequential: summarize(seqTimes),
      sequentialStatuses: seqStatuses,
      blobRequestsPerSubmit,
      concurrent: {
        keys: CONCURRENT,
        concurrency: CONCURRENCY,
        elapsedMs,
        accepted201: accepted,
        acceptedPerSecond: accepted / (elapsedMs / 1000),
        statuses: concStatuses,
        latency: summarize(concTimes),
      },
      shared: {
        rounds: SHARED_ROUNDS,
        clients: SHARED_CLIENTS,
        keysPerRound: SHARED_KEYS,
        elapsedMs: sharedElapsedMs,
        latency: summarize(sharedTimes),
        statuses: sharedStatuses,
        keysWithSeveralRequestIds,
      },
      replay: summarize(replayTimes),
      replayStatuses,
      replayedHeader,
      blobRequestsPerReplay,
      storedReceived,
      storedRecords: blobs.length,
      distinctKeys: WARMUP + SEQUENTIAL + CONCURRENT + SHARED_ROUNDS * SHARED_KEYS,
    };
    handBack(result);
  } finally {
    await blobs.stop();
  }
}

const statuses = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, v]) => `${k}×${v}`)
    .join(' ');
const requests = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([k, v]) => `${k} ${Number.isInteger(v) ? v : v.toFixed(2)}`)
    .join(', ');

export function printSubmit(r: SubmitResult): void {
  const c = r.concurrent;
  console.log(
    table(
      '4. submit into the Blobs inbox (local BlobsServer on 127.0.0.1, in-process; CRM_PROVIDER unset, no SMTP)',
      ['measure', 'p50', 'p99', 'mean', 'max', 'statuses'],
      [
        [
          `sequential submits (${r.sequential.n}, new key each)`,
          ms(r.sequential.p50),
          ms(r.sequential.p99),
          ms(r.sequential.mean),
          ms(r.sequential.max),
          statuses(r.sequentialStatuses),
        ],
        [
          `concurrent submits (${c.keys} keys, ${c.concurrency} in flight)`,
          ms(c.latency.p50),
          ms(c.latency.p99),
          ms(c.latency.mean),
          ms(c.latency.max),
          statuses(c.statuses),
        ],
        [
          `shared keys (${r.shared.rounds} rounds × ${r.shared.clients} at once on ${r.shared.keysPerRound} keys)`,
          ms(r.shared.latency.p50),
          ms(r.shared.latency.p99),
          ms(r.shared.latency.mean),
          ms(r.shared.latency.max),
          statuses(r.shared.statuses),
        ],
        [
          `idempotent replays (${r.replay.n}, same key + body)`,
          ms(r.replay.p50),
          ms(r.replay.p99),
          ms(r.replay.mean),
          ms(r.replay.max),
          statuses(r.replayStatuses),
        ],
      ],
    ),
  );
  console.log(
    table(
      '',
      ['throughput', 'value'],
      [
        [
          `accepted (201) submits per second, ${c.keys} keys at concurrency ${c.concurrency}`,
          `${c.acceptedPerSecond.toFixed(1)} /s`,
        ],
        ['201 received / elapsed', `${int(c.accepted201)} in ${ms(c.elapsedMs)}`],
        [
          `shared keys: submits answered per second`,
          `${((r.shared.rounds * r.shared.clients) / (r.shared.elapsedMs / 1000)).toFixed(1)} /s`,
        ],
        [
          'shared keys: keys answered with more than one request_id (exactly once: 0)',
          String(r.shared.keysWithSeveralRequestIds),
        ],
      ],
    ),
  );
  console.log(
    `sequential 201 with status 'received' (stored durably): ${r.storedReceived} of ${r.sequential.n}; replays marked Idempotent-Replayed: ${r.replayedHeader} of ${r.replay.n}`,
  );
  console.log(`request records in the store afterwards: ${r.storedRecords} for ${r.distinctKeys} distinct keys`);
  console.log(
    `Blobs HTTP requests per submit: ${requests(r.blobRequestsPerSubmit)}; per replay: ${requests(r.blobRequestsPerReplay)}`,
  );
  console.log(
    'command: node scripts/bench/submit.ts (fresh process; handler = default export of netlify/functions/proposal.mts; Idempotency-Key header distinct per submit)',
  );
}

if (import.meta.main) await main();
