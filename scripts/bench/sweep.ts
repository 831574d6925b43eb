/**
 * Item 5: the redelivery sweep. Against a real local Netlify Blobs server and a webhook CRM
 * stand-in on 127.0.0.1 that first refuses (500) and then heals:
 *   - the reply latency of a request that starts a sweep beside one with no sweep at all (pairs
 *     sent one after the other on the same store); the sweep runs after the reply
 *     (context.waitUntil), so the goal is a ratio near 1;
 *   - the time one sweep takes to deliver 1,000 pending requests, as `npm run inbox --
 *     redeliver` runs it, after one sweep within the function's own limits.
 *
 * Run by scripts/bench.ts in a fresh process: node scripts/bench/sweep.ts
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { startLocalBlobs } from './local-blobs.ts';
import { handBack, progress, root } from './process.ts';
import { int, ms, summarize, table, type Summary } from './stats.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';

export const PENDING = 1000;
export const PAIRS = 30;
const API = 'http://127.0.0.1/api/proposal';

export interface SweepResult {
  pending: number;
  /** Reply latency of guide requests: one that starts a sweep, and its pair with no sweep at all. */
  startsSweep: Summary;
  noSweep: Summary;
  /** One sweep within the function's limits (FUNCTION_SWEEP_LIMITS). */
  functionSweep: { worked: number; delivered: number; ms: number };
  /** The rest, in one on-demand sweep (`npm run inbox -- redeliver`). */
  onDemandSweep: { worked: number; delivered: number; ms: number };
  crmRecords: number;
}

type Handler = (req: Request, context?: { waitUntil: (p: Promise<unknown>) => void }) => Promise<Response>;

async function main(): Promise<void> {
  let healthy = false;
  const delivered = new Set<string>();
  const crm = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!healthy) {
        res.writeHead(500).end();
        return;
      }
      delivered.add(String(req.headers['webhook-id']));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => crm.listen(0, '127.0.0.1', resolve));
  const crmPort = (crm.address() as { port: number }).port;
  Object.assign(process.env, {
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `http://127.0.0.1:${crmPort}/crm`,
    CRM_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    CRM_TIMEOUT_MS: '2000',
    REDELIVERY_INTERVAL_SECONDS: '0.1',
    REDELIVERY_BACKOFF_SECONDS: '0.1',
  });
  for (const name of ['SMTP_URL', 'MAIL_FROM', 'NOTIFY_WEBHOOK_URL', 'RETENTION_DAYS']) delete process.env[name];

  const blobs = await startLocalBlobs('sweep');

  try {
    const { default: handler } = (await import('../../netlify/functions/proposal.mts')) as unknown as {
      default: Handler;
    };
    const { EXAMPLE_REQUESTS } = await import('../../src/contract/contract.ts');
    const { ProposalsStore } = await import('../../src/proposal/store/blobs.ts');
    const { submitDepsFromEnv } = await import('../../src/proposal/submit/config.ts');
    const { partnerFromKnowledge } = await import('../../src/proposal/submit/partner.ts');
    const { runSweep, FUNCTION_SWEEP_LIMITS } = await import('../../src/proposal/submit/sweep.ts');
    const post = (body: unknown, key?: string) =>
      new Request(API, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key !== undefined && { 'idempotency-key': key }) },
        body: JSON.stringify(body),
      });

    progress(`sweep: ${PENDING} submits while the CRM refuses (no sweep: no context)`);
    for (let i = 0; i < PENDING; i++) {
      const res = await handler(post(EXAMPLE_REQUESTS.submit, `bench-sweep-${i}-${randomUUID()}`));
      if (res.status !== 202) throw new Error(`expected 202 pending, got ${res.status}`);
    }

    progress(`sweep: ${PAIRS} pairs of guide requests, one starting a sweep and one with no sweep at all`);
    const withSweep: number[] = [];
    const without: number[] = [];
    const timed = async (context?: Parameters<Handler>[1]): Promise<number> => {
      const t0 = performance.now();
      const res = await handler(post(EXAMPLE_REQUESTS.guide), context);
      await res.arrayBuffer();
      return performance.now() - t0;
    };
    for (let i = 0; i < PAIRS; i++) {
      // Past the interval, so this request's sweep is due; the pair is timed once it has ended.
      await new Promise((r) => setTimeout(r, 150));
      const sweeps: Promise<unknown>[] = [];
      withSweep.push(await timed({ waitUntil: (p) => void sweeps.push(p) }));
      await Promise.all(sweeps);
      without.push(await timed());
    }

    healthy = true;
    const k = JSON.parse(await readFile(join(root, '.generated', 'knowledge.json'), 'utf8')) as Knowledge;
    const deps = submitDepsFromEnv(
      (name) => process.env[name],
      partnerFromKnowledge(k),
      k.consent,
      new ProposalsStore(),
    );
    const count = (r: { requests: { outcome: string }[] }, outcome: string) =>
      r.requests.filter((x) => x.outcome === outcome).length;

    progress('sweep: CRM healed; one sweep within the function limits');
    const fn = await runSweep(deps, { ...FUNCTION_SWEEP_LIMITS, ignoreBackoff: true });
    progress('sweep: the rest in one on-demand sweep');
    const rest = await runSweep(deps, {
      maxRequests: Number.POSITIVE_INFINITY,
      budgetMs: 15 * 60_000,
      concurrency: FUNCTION_SWEEP_LIMITS.concurrency,
      ignoreBackoff: true,
    });

    const result: SweepResult = {
      pending: PENDING,
      startsSweep: summarize(withSweep),
      noSweep: summarize(without),
      functionSweep: { worked: fn.requests.length, delivered: count(fn, 'delivered'), ms: fn.ms },
      onDemandSweep: { worked: rest.requests.length, delivered: count(rest, 'delivered'), ms: rest.ms },
      crmRecords: delivered.size,
    };
    handBack(result);
  } finally {
    await blobs.stop();
    crm.close();
  }
}

export function printSweep(r: SweepResult): void {
  const perRequest = (s: { worked: number; ms: number }) => (s.worked === 0 ? Number.NaN : s.ms / s.worked);
  console.log(
    table(
      `5. Redelivery sweep (webhook CRM stand-in refusing, then healed; ${int(r.pending)} pending requests)`,
      ['measure', 'value'],
      [
        [
          `guide reply p50 / p99, request that starts a sweep (${r.startsSweep.n})`,
          `${ms(r.startsSweep.p50)} / ${ms(r.startsSweep.p99)}`,
        ],
        [
          `guide reply p50 / p99, its pair with no sweep (${r.noSweep.n})`,
          `${ms(r.noSweep.p50)} / ${ms(r.noSweep.p99)}`,
        ],
        [
          'ratio of p50 (goal: about 1, the sweep runs after the reply)',
          `${(r.startsSweep.p50 / r.noSweep.p50).toFixed(2)}×`,
        ],
        [
          `one sweep within the function's limits: delivered / worked`,
          `${int(r.functionSweep.delivered)} / ${int(r.functionSweep.worked)} in ${ms(r.functionSweep.ms)} (${ms(perRequest(r.functionSweep))} each)`,
        ],
        [
          'the rest in one on-demand sweep (npm run inbox -- redeliver)',
          `${int(r.onDemandSweep.delivered)} / ${int(r.onDemandSweep.worked)} in ${ms(r.onDemandSweep.ms)} (${ms(perRequest(r.onDemandSweep))} each)`,
        ],
        ['1,000 pending delivered in (function sweep + on-demand sweep)', ms(r.functionSweep.ms + r.onDemandSweep.ms)],
        ['records at the CRM afterwards (exactly once: one per request)', `${int(r.crmRecords)} for ${int(r.pending)}`],
      ],
    ),
  );
  console.log('command: node scripts/bench/sweep.ts (fresh process; local Blobs server and CRM stand-in on 127.0.0.1)');
}

if (import.meta.main) await main();
