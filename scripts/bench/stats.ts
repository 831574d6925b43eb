/** Small statistics and formatting helpers shared by the benchmarks. Erasable TypeScript only. */

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of an already sorted array (q from 0 to 100). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((q / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((total, x) => total + x, 0);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length,
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

export const median = (samples: readonly number[]): number => summarize(samples).p50;

/** Milliseconds with a precision that suits their size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value < 1) return `${(value * 1000).toFixed(0)} µs`;
  if (value < 100) return `${value.toFixed(2)} ms`;
  return `${Math.round(value).toLocaleString('en-US')} ms`;
}

export function bytes(value: number): string {
  if (value < 1024) return `${value} B`;
  if (value < 1024 * 1024) return `${(value / 1024).toFixed(1)} KiB`;
  return `${(value / 1024 / 1024).toFixed(2)} MiB`;
}

/** Bytes as "12,345 B (12.1 KiB)". */
export function bytesExact(value: number): string {
  return `${value.toLocaleString('en-US')} B (${bytes(value)})`;
}

export const int = (value: number): string => Math.round(value).toLocaleString('en-US');

/** Rounds every number in a JSON-bound value to 3 decimals so the summary stays readable. */
export function rounded<T>(value: T): T {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) =>
      typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v,
    ),
  ) as T;
}

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function table(title: string, headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [``, title, rule, line(headers), rule, ...rows.map(line), rule].join('\n');
}
