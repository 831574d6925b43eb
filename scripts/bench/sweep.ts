/**
 * Item 5: owed work on the platform's clock. Against a real local Netlify Blobs server and a webhook
 * CRM stand-in on 127.0.0.1 that first refuses (500) and then heals: 1,000 requests stored pending,
 * then the scheduled function (netlify/functions/owed-work.mts, its 30 s limit) run minute after
 * minute on a moved clock until none is pending: what each run delivered and took, and the run's cost
 * when nothing is due beside the same run on an empty store (the due listing's head only).
 *
 * Run by scripts/bench.ts in a fresh process: node scripts/bench/sweep.ts
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { startLocalBlobs } from './local-blobs.ts';
import { handBack, progress } from './process.ts';
import { int, ms, table } from './stats.ts';

export const PENDING = 1000;
const API = 'http://127.0.0.1/api/proposal';

export interface SweepResult {
  pending: number;
  /** Each scheduled run until nothing was pending: delivered, and its wall time. */
  runs: { delivered: number; ms: number }[];
  /** A run with nothing due, on the store of 1,000 received requests and on an empty one. */
  idle: { full: number; empty: number };
  crmRecords: number;
}

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
    REDELIVERY_BACKOFF_SECONDS: '0.1',
  });
  for (const name of ['SMTP_URL', 'MAIL_FROM', 'NOTIFY_WEBHOOK_URL', 'RETENTION_DAYS']) delete process.env[name];

  const blobs = await startLocalBlobs('sweep');
  try {
    const { default: handler } = (await import('../../netlify/functions/proposal.mts')) as unknown as {
      default: (req: Request) => Promise<Response>;
    };
    const { default: scheduled } = await import('../../netlify/functions/owed-work.mts');
    const { EXAMPLE_REQUESTS } = await import('../../src/contract/contract.ts');
    const post = (body: unknown, key: string) =>
      new Request(API, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(body),
      });

    progress(`scheduled: ${PENDING} submits while the CRM refuses`);
    for (let i = 0; i < PENDING; i++) {
      const res = await handler(post(EXAMPLE_REQUESTS.submit, `bench-sweep-${i}-${randomUUID()}`));
      if (res.status !== 202) throw new Error(`expected 202 pending, got ${res.status}`);
    }
    healthy = true;
    // Back to back, as Netlify's clock would run them a minute apart: the 0.1 s backoff is over by then.
    const runs: SweepResult['runs'] = [];
    {
      while (delivered.size < PENDING && runs.length < 60) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const before = delivered.size;
        const t0 = performance.now();
        await scheduled();
        runs.push({ delivered: delivered.size - before, ms: performance.now() - t0 });
        progress(`scheduled: run ${runs.length} delivered ${delivered.size - before}`);
      }
      const idle = async () => {
        const t0 = performance.now();
        await scheduled();
        return performance.now() - t0;
      };
      const full = await idle();
      const emptyStore = await startLocalBlobs('sweep-empty');
      const empty = await idle().finally(() => emptyStore.stop());
      handBack({ pending: PENDING, runs, idle: { full, empty }, crmRecords: delivered.size } satisfies SweepResult);
    }
  } finally {
    await blobs.stop();
    crm.close();
  }
}

export function printSweep(r: SweepResult): void {
  const total = r.runs.reduce((sum, run) => sum + run.ms, 0);
  console.log(
    table(
      `5. Owed work on the platform's clock (webhook CRM stand-in refusing, then healed; ${int(r.pending)} pending requests)`,
      ['measure', 'value'],
      [
        ...r.runs.map((run, i): [string, string] => [
          `scheduled run ${i + 1} (30 s limit): delivered`,
          `${int(run.delivered)} in ${ms(run.ms)}`,
        ]),
        ['all pending delivered in (scheduled runs, one a minute)', `${int(r.runs.length)} runs, ${ms(total)} of work`],
        [
          'a run with nothing due: 1,000 stored / empty store',
          `${ms(r.idle.full)} / ${ms(r.idle.empty)} (${(r.idle.full / r.idle.empty).toFixed(2)}×)`,
        ],
        ['records at the CRM afterwards (exactly once: one per request)', `${int(r.crmRecords)} for ${int(r.pending)}`],
      ],
    ),
  );
  console.log('command: node scripts/bench/sweep.ts (fresh process; local Blobs server and CRM stand-in on 127.0.0.1)');
}

if (import.meta.main) await main();
