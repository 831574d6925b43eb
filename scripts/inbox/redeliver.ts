/**
 * `npm run inbox -- redeliver`: the function's sweep, run now from this machine. Its configuration is
 * this machine's (the environment, then .env), so against a deployed site it must be the site's: the
 * script refuses to run without an explicit CRM, and a way to send the email and chat messages open
 * requests may owe (or an explicit "the site sends none"), rather than resolve production requests
 * with the defaults of a laptop. A request accepted for another CRM is never delivered here.
 *
 * Runs on Node 24 type stripping: erasable TypeScript only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import { readEnv } from '../../src/contract/http.ts';
import { submitDepsFromEnv, type SubmitDeps } from '../../src/proposal/submit/config.ts';
import { partnerFromKnowledge } from '../../src/proposal/submit/partner.ts';
import type { CrmName } from '../../src/contract/submit-replies.ts';
import type { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import { listOpen } from '../../src/proposal/store/open-index.ts';
import { readRecord } from '../../src/proposal/submit/record.ts';
import { runSweep, type SweepLimits } from '../../src/proposal/submit/sweep.ts';

/** On demand nobody waits on a function limit: every open request now, backoff or not, a few at a time. */
const ON_DEMAND_LIMITS: SweepLimits = {
  maxRequests: Number.POSITIVE_INFINITY,
  budgetMs: 15 * 60_000,
  concurrency: 4,
  ignoreBackoff: true,
};

/** What the operator says of the deployed site it works on: that it sends no email, or no chat messages. */
export interface RedeliverOptions {
  noMail: boolean;
  noChat: boolean;
}

export const REDELIVER_USAGE = `  --no-mail            with redeliver: the site sends no email (owed emails are recorded as not
                       configured, as the site itself would)
  --no-chat            with redeliver: the site posts no chat messages (likewise)`;

/** Where the sweep runs: a store, a line saying which, and whether it is a deployed site's. */
export interface SweepTarget {
  store: ProposalsStore;
  where: string;
  deployed: boolean;
}

/** An error whose message is for the operator as it is (exit code 2, no stack). */
export class RedeliverRefused extends Error {}

/**
 * The function's dependencies from this machine's configuration (the environment, then .env, as
 * `npm start` reads it) and the build's partner facts; `--no-mail` and `--no-chat` take the channels away.
 */
function sweepDeps(store: ProposalsStore, options: RedeliverOptions): SubmitDeps {
  const root = process.cwd();
  // The same .env `npm start` reads; variables already set win.
  if (existsSync(join(root, '.env'))) process.loadEnvFile(join(root, '.env'));
  const file = join(root, '.generated', 'knowledge.json');
  if (!existsSync(file)) {
    throw new RedeliverRefused(
      'redeliver needs the partner facts of the build: run `npm run build` first (.generated/knowledge.json is missing).',
    );
  }
  const k = JSON.parse(readFileSync(file, 'utf8')) as Knowledge;
  const deps = submitDepsFromEnv(readEnv, partnerFromKnowledge(k), k.consent, store);
  return {
    ...deps,
    ...(options.noMail && { mailer: null }),
    ...(options.noChat && { notify: { emailTo: deps.notify.emailTo } }),
  };
}

/**
 * Why this configuration must not work on a deployed site's requests, one line each (empty: it may).
 * Every default of a laptop is wrong for a site: no CRM_PROVIDER means the inbox, which would mark
 * the site's pending requests received without any CRM getting them; no SMTP or chat webhook means
 * owed messages recorded as not configured, never sent.
 */
export function deployedSiteProblems(deps: SubmitDeps, options: RedeliverOptions): string[] {
  const problems: string[] = [];
  const provider = readEnv('CRM_PROVIDER');
  const { misconfigured } = deps.crm;
  if (provider === undefined) {
    problems.push(
      'CRM_PROVIDER is not set: set it, with its variables, to the CRM the site delivers to (inbox, webhook or hubspot).',
    );
  } else if (misconfigured !== undefined) {
    problems.push(
      `CRM_PROVIDER=${provider}: ${misconfigured.variables.join(', ')} ${misconfigured.variables.length === 1 ? 'is' : 'are'} ${misconfigured.reason === 'missing' ? 'not set' : `invalid (${misconfigured.reason})`}.`,
    );
  }
  const mail = ['SMTP_URL', 'MAIL_FROM'].filter((name) => readEnv(name) === undefined);
  if (!options.noMail && mail.length > 0) {
    problems.push(
      `${mail.join(' and ')} ${mail.length === 1 ? 'is' : 'are'} not set: set them as on the site, or pass --no-mail if the site sends no email.`,
    );
  }
  if (!options.noChat && deps.notify.chatUrl === undefined) {
    problems.push(
      'NOTIFY_WEBHOOK_URL is not set (or not usable): set it as on the site, or pass --no-chat if the site posts no chat messages.',
    );
  }
  return problems;
}

/** Open requests still to be delivered that were accepted for another CRM than `crm`: never delivered here. */
async function acceptedElsewhere(store: ProposalsStore, crm: CrmName): Promise<Map<string, CrmName>> {
  const elsewhere = new Map<string, CrmName>();
  for (const marker of await listOpen(store)) {
    if (marker.job) continue;
    const record = await readRecord(store, marker.id);
    if (record !== null && record.delivery.state === 'pending' && record.delivery.crm !== crm) {
      elsewhere.set(record.request_id, record.delivery.crm);
    }
  }
  return elsewhere;
}

/** Runs the sweep on `target` and returns what to print; throws RedeliverRefused before touching a site it must not. */
export async function redeliver(target: SweepTarget, options: RedeliverOptions): Promise<string> {
  const deps = sweepDeps(target.store, options);
  if (target.deployed) {
    const problems = deployedSiteProblems(deps, options);
    if (problems.length > 0) {
      throw new RedeliverRefused(
        [
          `Not redelivering the ${target.where}: this configuration is not the site's.`,
          ...problems.map((problem) => `  ${problem}`),
          'The variables are read from the environment, then .env.',
        ].join('\n'),
      );
    }
  }
  const crm = deps.crm.name;
  const elsewhere = await acceptedElsewhere(target.store, crm);
  const report = await runSweep(deps, ON_DEMAND_LIMITS);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const lines = [`Sweep of the ${target.where}: ${plural(report.open, 'open request')}, ${Math.round(report.ms)} ms.`];
  for (const { request_id: id, outcome } of report.requests) {
    const other = elsewhere.get(id);
    lines.push(
      other === undefined
        ? `  ${outcome.padEnd(9)} ${id}`
        : `  ${'skipped'.padEnd(9)} ${id}: accepted for the ${other} CRM, not this configuration's ${crm}; not delivered`,
    );
  }
  if (report.deferred > 0) lines.push(`  ${report.deferred} left for the next sweep (time budget).`);
  if (elsewhere.size > 0) {
    lines.push(
      `${plural(elsewhere.size, 'request')} accepted for another CRM ${elsewhere.size === 1 ? 'was' : 'were'} not delivered: run redeliver with that CRM's configuration.`,
    );
  }
  lines.push(
    `Deleted ${plural(report.entriesDeleted, 'day-bucket key pointer')} of earlier releases and ${plural(report.requestsDeleted, 'request')} past RETENTION_DAYS.`,
  );
  return `${lines.join('\n')}\n`;
}
