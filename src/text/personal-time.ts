/** Moments as people read them, the same on the server and in any browser (no locale's punctuation). */
const WHEN = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * A moment in UTC, with its weekday.
 * @example personalTime('2026-12-01T21:38:05Z') // "Tuesday 1 December 2026 at 21:38 UTC"
 */
export function personalTime(iso: string): string {
  const parts = Object.fromEntries(WHEN.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts['weekday']} ${parts['day']} ${parts['month']} ${parts['year']} at ${parts['hour']}:${parts['minute']} UTC`;
}
