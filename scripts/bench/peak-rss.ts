/** The line a build preloaded with report-peak-rss.ts ends its stderr with: peak RSS in KiB. */
export const PEAK_RSS_PREFIX = 'BENCH_PEAK_RSS_KIB ';

/** Peak RSS in bytes from a child's stderr, or null when it did not report. */
export function peakRssBytes(stderr: string): number | null {
  const line = stderr.split('\n').find((l) => l.startsWith(PEAK_RSS_PREFIX));
  return line === undefined ? null : Number(line.slice(PEAK_RSS_PREFIX.length)) * 1024;
}
