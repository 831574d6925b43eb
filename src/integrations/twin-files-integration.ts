/**
 * Writes every page's markdown twin when `astro build` is done, as the twin route handed them over
 * (./handover.ts). One loop of file writes costs a fraction of a route per twin, which Astro
 * renders, logs and writes one at a time.
 */
import type { AstroIntegration } from 'astro';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFrontmatter } from 'astro/markdown';
import { takeOver } from './handover.ts';

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
export function twinFilesIntegration(): AstroIntegration & { lastUpdated: (url: string) => string } {
  let updated = new Map<string, string>();
  return {
    name: 'twin-files',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        updated = writeTwinFiles(fileURLToPath(dir), takeOver('twins'));
        logger.info(`${updated.size} markdown twins written`);
      },
    },
    lastUpdated: (url) => {
      const date = updated.get(url);
      if (!date) throw new Error(`sitemap: ${url} has no markdown twin, so no date it last changed`);
      return date;
    },
  };
}
