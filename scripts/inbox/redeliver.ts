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
import type { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import { createIntake, workContext, type Intake } from '../../src/proposal/actions/pipeline.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';

/** On demand nobody waits on a function's limit: a claim of this run may last as long as one of the function's. */
const ON_DEMAND_MS = 15 * 60_000;

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
 * The function's instance from this machine's configuration (the environment, then .env, as `npm start`
 * reads it) and the build's facts, on `store`; `--no-mail` and `--no-chat` take the channels away.
 */
function instance(store: ProposalsStore, options: RedeliverOptions): Intake {
  const root = process.cwd();
  // The same .env `npm start` reads; variables already set win.
  if (existsSync(join(root, '.env'))) process.loadEnvFile(join(root, '.env'));
  const file = join(root, '.generated', 'knowledge.json');
  if (!existsSync(file))
    throw new RedeliverRefused(
      'redeliver needs the facts of the build: run `npm run build` first (.generated/knowledge.json is missing).',
    );
  const k = JSON.parse(readFileSync(file, 'utf8')) as Knowledge;
  const intake = createIntake(k, {} as Intake['validators'], readEnv, { store });
  const notify = options.noChat ? { ...intake.config.notify, chatUrl: undefined } : intake.config.notify;
  return {
    ...intake,
    ...(options.noMail && { mailer: null }),
    config: { ...intake.config, notify } as Intake['config'],
  };
}

/**
 * Why this configuration must not work on a deployed site's requests, one line each (empty: it may).
 * Every default of a laptop is wrong for a site: no CRM_PROVIDER means the inbox, which would mark
 * the site's pending requests received without any CRM getting them; no SMTP or chat webhook means
 * owed messages recorded as not configured, never sent.
 */
export function deployedSiteProblems(intake: Intake, options: RedeliverOptions): string[] {
  const problems: string[] = [];
  const provider = readEnv('CRM_PROVIDER');
  const crm = intake.config.crm;
  const misconfigured = 'misconfigured' in crm ? crm.misconfigured : undefined;
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
  if (!options.noChat && intake.config.notify.chatUrl === undefined) {
    problems.push(
      'NOTIFY_WEBHOOK_URL is not set (or not usable): set it as on the site, or pass --no-chat if the site posts no chat messages.',
    );
  }
  return problems;
}

/** Runs the scheduled work on `target` and returns what to print; throws RedeliverRefused before touching a site it must not. */
export async function redeliver(target: SweepTarget, options: RedeliverOptions): Promise<string> {
  const intake = instance(target.store, options);
  if (target.deployed) {
    const problems = deployedSiteProblems(intake, options);
    if (problems.length > 0)
      throw new RedeliverRefused(
        [
          `Not redelivering the ${target.where}: this configuration is not the site's.`,
          ...problems.map((problem) => `  ${problem}`),
          'The variables are read from the environment, then .env.',
        ].join('\n'),
      );
  }
  const started = performance.now();
  const report = await runScheduled(workContext(intake, { startedAt: started, limitMs: ON_DEMAND_MS }), {
    ignoreBackoff: true,
  });
  const parts = Object.entries(report).map(([name, n]) => `${name.replaceAll('_', ' ')} ${n}`);
  return `Owed work of the ${target.where}, backoff ignored, ${Math.round(performance.now() - started)} ms: ${parts.join(', ')}.\n`;
}
