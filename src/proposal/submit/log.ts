/**
 * One JSON line per operational event. Fields are ids, kinds, codes and variable names only:
 * never names, emails, free text or secrets, so logs can be shared without a data review.
 */
export type LogFields = Record<string, string | number | boolean | undefined>;

export function logEvent(event: string, fields: LogFields = {}): void {
  console.warn(JSON.stringify({ source: 'proposal-submit', event, ...fields }));
}
