/**
 * `npm run build`: builds the site and the function's data into a temporary folder, then swaps
 * them into place. A failed build therefore leaves the last good dist/ and .generated/ serving.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXISTING_BUILD_ENV } from './serve/existing-build.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
if (process.env[EXISTING_BUILD_ENV] === '1') {
  console.log('npm start --no-build: serving the existing build (dist/ and .generated/)');
  process.exit(0);
}
// One folder per process, so two builds at the same time never write into each other.
const work = join(root, '.build', String(process.pid));
const next = { dist: join(work, 'dist'), generated: join(work, 'generated') };
// OUT_DIR and GENERATED_DIR let tests build elsewhere; the site and the function use the defaults.
const live = {
  dist: resolve(root, process.env.OUT_DIR ?? 'dist'),
  generated: resolve(root, process.env.GENERATED_DIR ?? '.generated'),
};

/** Removes this build's folder, and .build/ when no other build is using it. */
function cleanUp(): void {
  rmSync(work, { recursive: true, force: true });
  try {
    rmdirSync(dirname(work));
  } catch {
    // not empty: another build is running
  }
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    cleanUp();
    console.error(`\nBuild failed: dist/ was left as it was (the last good build).`);
    process.exit(result.status ?? 1);
  }
}

/** Replaces `target` with `source`; the old folder is removed only after the new one is in place. */
function swap(source: string, target: string): void {
  const old = `${source}.old`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(source, target);
  rmSync(old, { recursive: true, force: true });
}

mkdirSync(work, { recursive: true });
// The build-outputs integration (astro.config.mjs) writes the function's data where it is told.
process.env.FUNCTION_DATA_DIR = next.generated;
run('astro', ['build', '--outDir', next.dist, ...process.argv.slice(2)]);
swap(next.dist, live.dist);
swap(next.generated, live.generated);
cleanUp();
