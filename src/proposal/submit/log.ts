/** One JSON line per event; fields are ids, kinds, codes and variable names only, so logs hold no personal data. */
export type LogFields = Record<string, string | number | boolean | undefined>;

export function logEvent(event: string, fields: LogFields = {}): void {
  console.warn(JSON.stringify({ source: 'proposal-submit', event, ...fields }));
}
