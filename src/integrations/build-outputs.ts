/**
 * Writes what the pages handed over (src/lib/handover.ts) when `astro build` is done: every page's
 * markdown twin, in one loop of file writes (a route per twin costs far more: Astro renders, logs
 * and writes them one at a time), and the proposal function's data (./function-data.ts), as
 * Starlight runs Pagefind over a finished build. The function's data goes beside the site it was
 * built from (`dist/` → `.generated/`), so a fixture build elsewhere never touches the project's
 * own; `npm run build` (scripts/build.ts) points FUNCTION_DATA_DIR at its temporary folder, so a
 * failed build never replaces the last good `.generated/`.
 */
import type { AstroIntegration } from 'astro';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFrontmatter } from 'astro/markdown';
import { writeFunctionDataFromDist } from './function-data.ts';
import { takeOver } from '../lib/handover.ts';

/** Writes `files` under `distDir`; returns each page's canonical URL and last update. */
export function writeTwinFiles(distDir: string, files: [string, string][]): Map<string, string> {
  const made = new Set<string>();
  const updated = new Map<string, string>();
  for (const [file, text] of files) {
    const { canonical_url, last_updated } = parseFrontmatter(text).frontmatter as Record<string, string>;
    updated.set(canonical_url!, last_updated!);
    const target = resolve(distDir, file);
    // The files come from page paths, but a twin must never land outside the site.
    if (relative(distDir, target).startsWith('..')) throw new Error(`twin ${file} would be written outside dist/`);
    const dir = dirname(target);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    writeFileSync(target, text);
  }
  return updated;
}

/**
 * The integration, and the date each page last changed as its twin states it (`last_updated`),
 * for the sitemap: @astrojs/sitemap, listed after this integration, asks once the twins are written.
 */
export function buildOutputs(): AstroIntegration & { lastUpdated: (url: string) => string } {
  let updated = new Map<string, string>();
  return {
    name: 'build-outputs',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const distDir = fileURLToPath(dir);
        updated = writeTwinFiles(distDir, takeOver('twins'));
        logger.info(`${updated.size} markdown twins written`);
        const outDir = process.env.FUNCTION_DATA_DIR ?? join(dirname(distDir), '.generated');
        const written = writeFunctionDataFromDist(distDir, outDir, takeOver('knowledge'));
        logger.info(`function data: ${written.length > 0 ? written.join(', ') : 'nothing'} changed in ${outDir}`);
      },
    },
    lastUpdated: (url) => {
      const date = updated.get(url);
      if (!date) throw new Error(`sitemap: ${url} has no markdown twin, so no date it last changed`);
      return date;
    },
  };
}
