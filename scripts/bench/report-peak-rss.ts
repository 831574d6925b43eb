/**
 * Preloaded into a benchmarked build (`node --import <this file> astro.mjs build`): prints the
 * process's peak resident memory when it exits, for the build benchmark to read from stderr.
 */
import { PEAK_RSS_PREFIX } from './peak-rss.ts';

process.on('exit', () => {
  process.stderr.write(`\n${PEAK_RSS_PREFIX}${process.resourceUsage().maxRSS}\n`);
});
