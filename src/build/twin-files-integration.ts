/**
 * Writes every page's markdown twin when `astro build` is done, from the one document the
 * build-data/twins.json route emitted. One route and a loop of file writes cost a fraction of a
 * route per twin, which Astro renders, logs and writes one at a time.
 */
import type { AstroIntegration } from 'astro';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_DATA_FILES, removeBuildData } from './build-data.ts';

/** Writes the twins listed in `distDir`'s build-data file; returns how many. */
export function writeTwinFiles(distDir: string): number {
  const source = join(distDir, BUILD_DATA_FILES.twins);
  const files = JSON.parse(readFileSync(source, 'utf8')) as [string, string][];
  const made = new Set<string>();
  for (const [file, text] of files) {
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
  return files.length;
}

export function twinFilesIntegration(): AstroIntegration {
  return {
    name: 'twin-files',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        logger.info(`${writeTwinFiles(fileURLToPath(dir))} markdown twins written`);
      },
    },
  };
}
