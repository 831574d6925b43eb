import type { Config } from '@netlify/functions';
import knowledge from '../../.generated/knowledge.json' with { type: 'json' };
import * as validators from '../../.generated/validators.mjs';
import { readEnv } from '../../src/contract/http.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import { createIntake, workContext, type Intake } from '../../src/proposal/actions/pipeline.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';

/** Netlify's limit of a scheduled function: no claim of this run outlives it. */
export const SCHEDULED_LIMIT_MS = 30_000;

/** The owed work that is due, on Netlify's clock: no HTTP path, so the site's HTTP surface stays one function. */
let intake: Intake | undefined;

export default async () => {
  const startedAt = performance.now();
  intake ??= createIntake(knowledge as Knowledge, validators, readEnv);
  await runScheduled(workContext(intake, { startedAt, limitMs: SCHEDULED_LIMIT_MS }));
};

export const config: Config = {
  // Every minute, the finest cadence cron allows (UTC): owed work waits at most a minute after it is due.
  schedule: '* * * * *',
};
