/** Builds a changed copy of content/ into a temporary folder, as `astro build` with CONTENT_DIR. */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../../scripts/local-site/dist.ts';

export interface FixtureBuild {
  status: number | null;
  /** stdout and stderr of the build. */
  output: string;
  outDir: string;
  contentDir: string;
}

const workDirs: string[] = [];

/** Copies content/, lets `edit` change the copy, builds it; returns the build's exit status and output. */
export function buildFixture(edit: (contentDir: string) => void): FixtureBuild {
  const work = mkdtempSync(join(tmpdir(), 'content-fixture-'));
  workDirs.push(work);
  const contentDir = join(work, 'content');
  cpSync(join(root, 'content'), contentDir, { recursive: true });
  edit(contentDir);
  const outDir = join(work, 'dist');
  const result = spawnSync('npx', ['astro', 'build', '--outDir', outDir], {
    cwd: root,
    env: {
      ...process.env,
      CONTENT_DIR: contentDir,
      ASTRO_CACHE_DIR: join(work, 'cache'),
      ASTRO_TELEMETRY_DISABLED: '1',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
    },
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}`, outDir, contentDir };
}

/** Removes every fixture folder made so far; call from afterAll. */
export function removeFixtures(): void {
  for (const dir of workDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
