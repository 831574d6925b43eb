/**
 * Item 2: in-process latency of the proposal function (netlify/functions/proposal.mts, imported
 * natively by Node 24: JSON import attributes, .generated/validators.mjs, .ts by type stripping)
 * for `guide` and `summarize`, beside a no-op handler timed the same way in the same process.
 *
 * One sample = build the Request, await the handler, read the whole response body. The three
 * handlers are interleaved in rounds so drift (GC, CPU frequency, the other core) hits all alike.
 *
 * Run by scripts/bench.ts in a fresh process: node scripts/bench/latency.ts
 */
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
  guide: Summary;
  summarize: Summary;
  ratioP50Guide: number;
  ratioP50Summarize: number;
  responseBytes: { guide: number; summarize: number };
}

type Handler = (req: Request) => Promise<Response>;

async function sample(handler: Handler, body: string, expectStatus: number): Promise<{ ms: number; size: number }> {
  const started = performance.now();
  const res = await handler(
    new Request(API, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
  );
  const data = await res.arrayBuffer();
  const elapsed = performance.now() - started;
  if (res.status !== expectStatus)
    throw new Error(`expected ${expectStatus}, got ${res.status}: ${new TextDecoder().decode(data).slice(0, 300)}`);
  return { ms: elapsed, size: data.byteLength };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const { default: proposal } = await import('../../netlify/functions/proposal.mts');
  const importMs = performance.now() - t0;
  const { EXAMPLE_REQUESTS } = await import('../../src/proposal/contract.ts');

  const noop: Handler = async (_req: Request) => new Response('{}');
  const cases: { name: 'noop' | 'guide' | 'summarize'; handler: Handler; body: string }[] = [
    { name: 'noop', handler: noop, body: JSON.stringify(EXAMPLE_REQUESTS.guide) },
    { name: 'guide', handler: proposal, body: JSON.stringify(EXAMPLE_REQUESTS.guide) },
    { name: 'summarize', handler: proposal, body: JSON.stringify(EXAMPLE_REQUESTS.summarize) },
  ];
  const samples: Record<string, number[]> = { noop: [], guide: [], summarize: [] };
  const sizes: Record<string, number> = {};

  progress(`latency: ${WARMUP} warm-up calls each`);
  for (const c of cases) for (let i = 0; i < WARMUP; i++) sizes[c.name] = (await sample(c.handler, c.body, 200)).size;

  progress(`latency: ${CALLS} measured calls each, interleaved in ${ROUNDS} rounds`);
  const perRound = CALLS / ROUNDS;
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order so no handler always runs right after another's garbage.
    for (let j = 0; j < cases.length; j++) {
      const c = cases[(round + j) % cases.length] as (typeof cases)[number];
      const into = samples[c.name] as number[];
      for (let i = 0; i < perRound; i++) into.push((await sample(c.handler, c.body, 200)).ms);
    }
  }
  const stats = {
    noop: summarize(samples['noop'] ?? []),
    guide: summarize(samples['guide'] ?? []),
    summarize: summarize(samples['summarize'] ?? []),
  };
  const result: LatencyResult = {
    importMs,
    warmup: WARMUP,
    calls: CALLS,
    rounds: ROUNDS,
    ...stats,
    ratioP50Guide: stats.guide.p50 / stats.noop.p50,
    ratioP50Summarize: stats.summarize.p50 / stats.noop.p50,
    responseBytes: { guide: sizes['guide'] ?? 0, summarize: sizes['summarize'] ?? 0 },
  };
  handBack(result);
}

export function printLatency(r: LatencyResult): void {
  const row = (name: string, s: Summary, ratio: string) => [
    name,
    ms(s.p50),
    ms(s.p99),
    ms(s.mean),
    ms(s.max),
    `${Math.round(1000 / s.mean).toLocaleString('en-US')}/s`,
    ratio,
  ];
  console.log(
    table(
      `2. In-process handler latency (${r.calls} calls each after ${r.warmup} warm-up; Request built + handler + body read)`,
      ['handler', 'p50', 'p99', 'mean', 'max', 'calls/s (1/mean)', 'p50 / no-op p50'],
      [
        row('no-op  async (req) => new Response("{}")', r.noop, '1.0x'),
        row(`guide     (${r.responseBytes.guide} B reply)`, r.guide, `${r.ratioP50Guide.toFixed(1)}x`),
        row(`summarize (${r.responseBytes.summarize} B reply)`, r.summarize, `${r.ratioP50Summarize.toFixed(1)}x`),
      ],
    ),
  );
  console.log(
    `command: node scripts/bench/latency.ts (fresh process; handler = default export of netlify/functions/proposal.mts, loaded natively in ${ms(r.importMs)})`,
  );
  console.log(`ratio p50 guide / p50 no-op: ${r.ratioP50Guide.toFixed(1)}x`);
}

if (import.meta.main) await main();
