/**
 * Item 2: in-process latency of the proposal function (netlify/functions/proposal.mts, imported
 * natively by Node 24: JSON import attributes, .generated/validators.mjs, .ts by type stripping)
 * for `guide` and `summarize`, beside two baselines timed the same way in the same process: a no-op
 * handler, and a minimal JSON endpoint doing the I/O every JSON endpoint must (read and parse the
 * body, serialize a reply as large as guide's), so the ratio to it is the cost of the checks.
 *
 * One sample = build the Request, await the handler, read the whole response body. The four
 * handlers are interleaved in rounds so drift (GC, CPU frequency, the other core) hits all alike.
 * The tail is then taken apart: the calls a collector pause fell into (recorded by a 'gc'
 * PerformanceObserver) and each round's first call are set aside, and the rest's p99 printed.
 *
 * Run by scripts/bench.ts in a fresh process: node scripts/bench/latency.ts
 */
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { handBack, progress } from './process.ts';
import { ms, summarize, table, type Summary } from './stats.ts';

export const WARMUP = 200;
export const CALLS = 2000;
const ROUNDS = 20;
const API = 'http://127.0.0.1/api/proposal';

export interface LatencyResult {
  importMs: number;
  warmup: number;
  calls: number;
  rounds: number;
  noop: Summary;
  json: Summary;
  guide: Summary;
  summarize: Summary;
  ratioP50Guide: number;
  ratioP50Summarize: number;
  /**
   * Per handler, where its tail comes from: calls a collector pause fell into, and the p99 of the
   * rest once those and each round's first call (caches and branch history still hold the previous
   * handler) are set aside.
   */
  tail: Record<CaseName, { gcHitCalls: number; rest: Summary }>;
  gcPauses: number;
  responseBytes: { guide: number; summarize: number; json: number };
  /** The sensitive-data scan alone (findSensitiveData) over a request of about 4 KB of prose. */
  scan: { bytes: number; calls: number; perCall: Summary };
}

/** A submit-sized body: the example's prose fields, repeated until the request is about 4 KB. */
function fourKilobyteBody(example: Record<string, unknown>): Record<string, string> {
  const prose = Object.entries(example).filter(([, v]) => typeof v === 'string' && v.length > 20) as [string, string][];
  const body: Record<string, string> = { action: 'submit' };
  for (const [name] of prose) body[name] = '';
  for (let i = 0; JSON.stringify(body).length < 4000; i++) {
    const [name, text] = prose[i % prose.length]!;
    body[name] = `${body[name]} ${text}`.trim();
  }
  return body;
}

/** Mean per call of the scan, after warm-up: it runs on every summarize and submit. */
async function benchScan(example: Record<string, unknown>): Promise<LatencyResult['scan']> {
  const { findSensitiveData } = await import('../../src/proposal/guard/index.ts');
  const body = fourKilobyteBody(example);
  for (let i = 0; i < WARMUP; i++) await findSensitiveData(body);
  const perCall: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await findSensitiveData(body);
    perCall.push(performance.now() - t0);
  }
  return { bytes: JSON.stringify(body).length, calls: CALLS, perCall: summarize(perCall) };
}

type Handler = (req: Request) => Promise<Response>;
type CaseName = 'noop' | 'json' | 'guide' | 'summarize';

async function sample(
  handler: Handler,
  body: string,
  expectStatus: number,
): Promise<{ start: number; ms: number; size: number }> {
  const started = performance.now();
  const res = await handler(
    new Request(API, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
  );
  const data = await res.arrayBuffer();
  const elapsed = performance.now() - started;
  if (res.status !== expectStatus)
    throw new Error(`expected ${expectStatus}, got ${res.status}: ${new TextDecoder().decode(data).slice(0, 300)}`);
  return { start: started, ms: elapsed, size: data.byteLength };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const { default: proposal } = await import('../../netlify/functions/proposal.mts');
  const importMs = performance.now() - t0;
  const { EXAMPLE_REQUESTS } = await import('../../src/contract/contract.ts');

  const noop: Handler = async (_req: Request) => new Response('{}');
  // Pad the minimal endpoint's reply to the size of guide's, measured once.
  const guideBytes = (await sample(proposal, JSON.stringify(EXAMPLE_REQUESTS.guide), 200)).size;
  const padding = 'x'.repeat(Math.max(0, guideBytes - JSON.stringify({ action: 'guide', text: '' }).length));
  const json: Handler = async (req: Request) => {
    const body = (await req.json()) as { action?: unknown };
    return Response.json({ action: body.action, text: padding });
  };
  const cases: { name: CaseName; handler: Handler; body: string }[] = [
    { name: 'noop', handler: noop, body: JSON.stringify(EXAMPLE_REQUESTS.guide) },
    { name: 'json', handler: json, body: JSON.stringify(EXAMPLE_REQUESTS.guide) },
    { name: 'guide', handler: proposal, body: JSON.stringify(EXAMPLE_REQUESTS.guide) },
    { name: 'summarize', handler: proposal, body: JSON.stringify(EXAMPLE_REQUESTS.summarize) },
  ];
  const samples: Record<CaseName, { start: number; ms: number; first: boolean }[]> = {
    noop: [],
    json: [],
    guide: [],
    summarize: [],
  };
  const sizes: Record<string, number> = {};

  progress(`latency: ${WARMUP} warm-up calls each`);
  for (const c of cases) for (let i = 0; i < WARMUP; i++) sizes[c.name] = (await sample(c.handler, c.body, 200)).size;

  progress(`latency: ${CALLS} measured calls each, interleaved in ${ROUNDS} rounds`);
  // The tail of a sub-millisecond call is where a collector pause lands; record each pause to
  // tell the calls it fell into from the rest.
  const pauses: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const perRound = CALLS / ROUNDS;
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order so no handler always runs right after another's garbage.
    for (let j = 0; j < cases.length; j++) {
      const c = cases[(round + j) % cases.length] as (typeof cases)[number];
      const into = samples[c.name];
      for (let i = 0; i < perRound; i++) into.push({ ...(await sample(c.handler, c.body, 200)), first: i === 0 });
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 100)); // the observer's last batches
  observer.disconnect();
  const hit = (s: { start: number; ms: number }) =>
    pauses.some((p) => p.startTime < s.start + s.ms && p.startTime + p.duration > s.start);
  const times = (name: CaseName) => samples[name].map((s) => s.ms);
  const tailOf = (name: CaseName) => ({
    gcHitCalls: samples[name].filter(hit).length,
    rest: summarize(samples[name].filter((s) => !s.first && !hit(s)).map((s) => s.ms)),
  });
  const stats = {
    noop: summarize(times('noop')),
    json: summarize(times('json')),
    guide: summarize(times('guide')),
    summarize: summarize(times('summarize')),
  };
  const result: LatencyResult = {
    importMs,
    warmup: WARMUP,
    calls: CALLS,
    rounds: ROUNDS,
    ...stats,
    ratioP50Guide: stats.guide.p50 / stats.noop.p50,
    ratioP50Summarize: stats.summarize.p50 / stats.noop.p50,
    tail: { noop: tailOf('noop'), json: tailOf('json'), guide: tailOf('guide'), summarize: tailOf('summarize') },
    gcPauses: pauses.length,
    responseBytes: { guide: sizes['guide'] ?? 0, summarize: sizes['summarize'] ?? 0, json: sizes['json'] ?? 0 },
    scan: await benchScan(EXAMPLE_REQUESTS.submit),
  };
  handBack(result);
}

export function printLatency(r: LatencyResult): void {
  const x = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
  const row = (name: string, s: Summary) => [
    name,
    ms(s.p50),
    ms(s.p99),
    ms(s.mean),
    ms(s.max),
    `${Math.round(1000 / s.mean).toLocaleString('en-US')}/s`,
    `${x(s.p50, r.noop.p50)} / ${x(s.p99, r.noop.p99)}`,
    `${x(s.p50, r.json.p50)} / ${x(s.p99, r.json.p99)}`,
  ];
  console.log(
    table(
      `2. In-process handler latency (${r.calls} calls each after ${r.warmup} warm-up; Request built + handler + body read)`,
      ['handler', 'p50', 'p99', 'mean', 'max', 'calls/s (1/mean)', 'vs no-op p50 / p99', 'vs minimal JSON p50 / p99'],
      [
        row('no-op  async (req) => new Response("{}")', r.noop),
        row(`minimal JSON: req.json(), Response.json (${r.responseBytes.json} B reply)`, r.json),
        row(`guide     (${r.responseBytes.guide} B reply)`, r.guide),
        row(`summarize (${r.responseBytes.summarize} B reply)`, r.summarize),
      ],
    ),
  );
  console.log(
    `command: node scripts/bench/latency.ts (fresh process; handler = default export of netlify/functions/proposal.mts, loaded natively in ${ms(r.importMs)})`,
  );
  console.log(
    `p99 guide / p99 no-op: ${x(r.guide.p99, r.noop.p99)}; p99 guide / p99 minimal JSON endpoint: ${x(r.guide.p99, r.json.p99)}`,
  );
  console.log(
    `sensitive-data scan alone, ${r.scan.bytes}-byte request: p50 ${ms(r.scan.perCall.p50)}, p99 ${ms(r.scan.perCall.p99)}, mean ${ms(r.scan.perCall.mean)} (${r.scan.calls} calls after warm-up)`,
  );
  const names: [CaseName, string][] = [
    ['noop', 'no-op'],
    ['json', 'minimal JSON'],
    ['guide', 'guide'],
    ['summarize', 'summarize'],
  ];
  console.log(
    `where the tail comes from: ${r.gcPauses} collector pauses during the measured calls; per handler, calls a pause fell into, then p99 of the calls that are neither those nor a round's first (${r.rounds} each), vs no-op's:`,
  );
  for (const [key, label] of names) {
    const t = r.tail[key];
    console.log(
      `  ${label}: ${t.gcHitCalls} (${((100 * t.gcHitCalls) / r.calls).toFixed(1)}%); p99 of the rest ${ms(t.rest.p99)} (${x(t.rest.p99, r.tail.noop.rest.p99)})`,
    );
  }
}

if (import.meta.main) await main();
