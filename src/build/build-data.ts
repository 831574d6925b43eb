/**
 * Routes under /build-data/ carry what only a route can compute (it reads the content collection)
 * to the integrations that run when `astro build` is done. Each integration takes its file out of
 * the site; the folder goes with the last one.
 */
import { rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const BUILD_DATA_FILES = {
  /** The proposal function's knowledge (./function-data.ts). */
  knowledge: 'build-data/knowledge.json',
  /** Every markdown twin as `[file, text]` pairs (./twin-files-integration.ts). */
  twins: 'build-data/twins.json',
} as const;

/** Removes one build-data file from `distDir`, and the folder once it is empty. */
export function removeBuildData(distDir: string, file: string): void {
  const path = join(distDir, file);
  rmSync(path, { force: true });
  try {
    rmdirSync(dirname(path));
  } catch {
    // another integration's file is still there
  }
}
