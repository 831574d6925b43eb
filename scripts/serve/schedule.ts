/**
 * Netlify's clock, locally: `netlify serve` and `netlify dev` do not fire schedules, so `npm start` and
 * `npm run dev` invoke the scheduled function themselves, on the cadence its `config.schedule` gives
 * (read from the file as Netlify reads it, and run by the cron parser netlify-cli uses), through the
 * inner port as the platform would. A quiet local site then behaves like a quiet production one.
 * OWED_WORK_EVERY_SECONDS replaces the cadence (tests that cannot wait a minute).
 */
import { readFileSync } from 'node:fs';
import { CronExpressionParser } from 'cron-parser';

export const SCHEDULED_FUNCTION = 'owed-work';

/** The function's `schedule`, read statically from its file. */
export function scheduleOf(file: string): string {
  const schedule = /\bschedule:\s*'([^']+)'/.exec(readFileSync(file, 'utf8'))?.[1];
  if (schedule === undefined) throw new Error(`${file} has no config.schedule`);
  return schedule;
}

/** Invokes the scheduled function at every run of `schedule` (UTC) until the process ends; failures are said, never fatal. */
export function runSchedule(
  schedule: string,
  origin: () => string,
  everySeconds = Number(process.env['OWED_WORK_EVERY_SECONDS'] ?? 0),
) {
  const cron = CronExpressionParser.parse(schedule, { tz: 'UTC' });
  const next = () => (everySeconds > 0 ? everySeconds * 1000 : Math.max(0, cron.next().getTime() - Date.now()));
  let failing = false;
  const tick = async () => {
    try {
      const res = await fetch(`${origin()}/.netlify/functions/${SCHEDULED_FUNCTION}`, { method: 'POST' });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      failing = false;
    } catch (error) {
      // Once per outage, not every minute.
      if (!failing) console.error(`scheduled run of ${SCHEDULED_FUNCTION} failed: ${(error as Error).message}`);
      failing = true;
    }
    timer = setTimeout(() => void tick(), next());
  };
  let timer = setTimeout(() => void tick(), next());
  timer.unref();
  return () => clearTimeout(timer);
}
