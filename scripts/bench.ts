/**
 * Benchmark suite: `npm run bench` (node scripts/bench.ts). Prints figures, asserts nothing but
 * that each benchmark ran, and writes bench-results/summary.json.
 *
 *   1. build time and peak memory: real content, + 1,000 and + 10,000 generated posts, beside
 *      the Astro floor (a tiny Astro project of the same posts) built in the same run
 *   2. in-process latency of the proposal function (guide, summarize) beside a no-op handler and
 *      a minimal JSON endpoint
 *   3. the function zipped as Netlify ships it, beside a no-op V2 function packed the same way
 *      (the packager's floor): size and cold import time
 *   4. submit into the Blobs inbox: sequential, concurrent throughput and idempotent replay
 *   5. the redelivery sweep: its cost to the reply that starts it, and 1,000 pending delivered
 *   6. Web Bot Auth: a signed submit's reply with a cold and a warm key-directory cache, beside an
 *      unsigned one (`npm run bench -- agent-identity` runs this part alone)
 *   7. false positives of the sensitive-data guard: a million crypto.randomUUID() keys, a million
 *      UUIDv7 and 100,000 of each other technical value (ULIDs, nanoids, ARNs, IPs, phones,
 *      versions, dates), alone and in sentences (`npm run bench -- false-positives` runs it alone)
 *
 * Runs on Node 24 type stripping: erasable TypeScript only. Takes about seven minutes on 2 cores
 * (item 7 about three of them).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { benchBuild, printBuild, type BuildResult } from './bench/build.ts';
import { benchBundle, printBundle, type BundleResult } from './bench/bundle.ts';
import { printLatency, type LatencyResult } from './bench/latency.ts';
import { childEnv, progress, root, run, runChildBench } from './bench/process.ts';
import { printSubmit, type SubmitResult } from './bench/submit.ts';
import { printSweep, type SweepResult } from './bench/sweep.ts';
import { printAgentIdentity, type AgentIdentityResult } from './bench/agent-identity.ts';
import { printFalsePositives, type FalsePositiveResult } from './bench/false-positives.ts';
import { ms, rounded } from './bench/stats.ts';

const started = performance.now();
const startedAt = new Date().toISOString();
const command = `node ${process.argv
  .slice(1)
  .map((a) => a.replace(root, ''))
  .join(' ')}`;

console.log('Kestrel Cloud site benchmarks');
console.log(`command: npm run bench → ${command} (cwd ${root})`);
console.log(
  `node ${process.version} on ${process.platform}/${process.arch}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${startedAt}`,
);

// 6 alone: it needs only .generated/ (npm run build), not the other parts' minutes.
if (process.argv[2] === 'agent-identity') {
  printAgentIdentity(await runChildBench<AgentIdentityResult>('./agent-identity.ts'));
  process.exit(0);
}

// 7 alone: it needs nothing built.
if (process.argv[2] === 'false-positives') {
  printFalsePositives(await runChildBench<FalsePositiveResult>('./false-positives.ts'));
  process.exit(0);
}

const timings: Record<string, number> = {};
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await work();
  } finally {
    timings[name] = performance.now() - t0;
  }
}

// 1. Builds go to temp dirs and leave dist/ and .generated/ alone.
const build: BuildResult = await step('build', benchBuild);
printBuild(build);

// Items 2 and 4 import the function, which needs the real build's .generated/.
let realBuild: { ran: boolean; ms?: number } = { ran: false };
if (!existsSync(join(root, '.generated/knowledge.json')) || !existsSync(join(root, '.generated/validators.mjs'))) {
  progress('.generated/ is missing: running npm run build first');
  const r = await run('npm', ['run', 'build'], { env: childEnv() });
  if (r.code !== 0) throw new Error(`npm run build failed:\n${(r.stdout + r.stderr).slice(-3000)}`);
  realBuild = { ran: true, ms: r.ms };
  console.log(`\n(npm run build was needed for .generated/: ${ms(r.ms)})`);
}

// 2 and 4 run in fresh processes, so neither inherits the other's heap, JIT or Blobs context.
const latency: LatencyResult = await step('latency', () => runChildBench<LatencyResult>('./latency.ts'));
printLatency(latency);

const bundle: BundleResult = await step('bundle', benchBundle);
printBundle(bundle);

const submit: SubmitResult = await step('submit', () =>
  runChildBench<SubmitResult>(
    './submit.ts',
    childEnv({ CRM_PROVIDER: undefined, SMTP_URL: undefined, MAIL_FROM: undefined, CRM_TIMEOUT_MS: undefined }),
  ),
);
printSubmit(submit);

const sweep: SweepResult = await step('sweep', () => runChildBench<SweepResult>('./sweep.ts'));
printSweep(sweep);

const agentIdentity: AgentIdentityResult = await step('agent identity', () =>
  runChildBench<AgentIdentityResult>('./agent-identity.ts'),
);
printAgentIdentity(agentIdentity);

const falsePositives: FalsePositiveResult = await step('false positives', () =>
  runChildBench<FalsePositiveResult>('./false-positives.ts'),
);
printFalsePositives(falsePositives);

const totalMs = performance.now() - started;
const out = join(root, 'bench-results');
mkdirSync(out, { recursive: true });
const summaryFile = join(out, 'summary.json');
writeFileSync(
  summaryFile,
  `${JSON.stringify(
    rounded({
      command,
      node: process.version,
      cores: availableParallelism(),
      startedAt,
      totalMs,
      stepMs: timings,
      units: { time: 'ms', size: 'bytes', rate: 'per second' },
      realBuild,
      build,
      latency,
      bundle,
      submit,
      sweep,
      agentIdentity,
      falsePositives,
    }),
    null,
    2,
  )}\n`,
);
console.log(
  `\nsummary written to ${summaryFile.replace(root, '')}; whole run ${ms(totalMs)} (${Object.entries(timings)
    .map(([k, v]) => `${k} ${ms(v)}`)
    .join(', ')})`,
);
