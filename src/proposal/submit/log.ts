/** One JSON line per event; fields are ids, kinds, codes and variable names only, so logs hold no personal data. */
export type LogFields = Record<string, string | number | boolean | undefined>;

export function logEvent(event: string, fields: LogFields = {}): void {
  console.warn(JSON.stringify({ source: 'proposal-submit', event, ...fields }));
}

/** What a log may say of a thrown value: its class name, never its message (which may quote request data). */
export const errorName = (error: unknown): string => (error instanceof Error ? error.name : 'unknown');
