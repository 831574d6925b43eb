/**
 * Writes every page's markdown twin when `astro build` is done, from the one document the
 * build-data/twins.json route emitted. One route and a loop of file writes cost a fraction of a
 * route per twin, which Astro renders, logs and writes one at a time.
 */
import type { AstroIntegration } from 'astro';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFrontmatter } from 'astro/markdown';
import { BUILD_DATA_FILES, removeBuildData } from './build-data.ts';

/** Writes the twins listed in `distDir`'s build-data file; returns each page's canonical URL and last update. */
export function writeTwinFiles(distDir: string): Map<string, string> {
  const source = join(distDir, BUILD_DATA_FILES.twins);
  const files = JSON.parse(readFileSync(source, 'utf8')) as [string, string][];
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
  removeBuildData(distDir, BUILD_DATA_FILES.twins);
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
        updated = writeTwinFiles(fileURLToPath(dir));
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
