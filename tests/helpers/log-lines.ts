/** The function's log lines a test wrote, by level (src/proposal/submit/log.ts), kept off the test output. */
import { vi } from 'vitest';

export type LogLine = { level: 'info' | 'warn' | 'error'; entry: Record<string, unknown>; text: string };

/** Spies on console.info, .warn and .error until vi.restoreAllMocks(); returns the lines as they come. */
export function captureLogLines(): LogLine[] {
  const lines: LogLine[] = [];
  for (const level of ['info', 'warn', 'error'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      const text = args.map(String).join(' ');
      let entry: Record<string, unknown> = {};
      try {
        entry = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // Not one of the function's JSON lines: kept as text only.
      }
      lines.push({ level, entry, text });
    });
  }
  return lines;
}

/** All lines' text, for "names this variable" and "holds no request data" checks. */
export const logText = (lines: LogLine[]): string => lines.map((line) => line.text).join('\n');
