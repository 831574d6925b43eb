/**
 * `npm run check`: `astro check` (strict TypeScript over the whole project). The function and its
 * tests import the data the build generates (.generated/), so on a fresh clone, where no build
 * has run yet, this builds first and says so, instead of failing with "Cannot find module".
 *
 * Runs on Node 24 type stripping: erasable TypeScript only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const GENERATED = ['.generated/validators.mjs', '.generated/knowledge.json'];

function run(command: string, args: string[]): void {
  const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

if (GENERATED.some((file) => !existsSync(new URL(file, `file://${root}`)))) {
  console.log('npm run check: no build yet (.generated/ is missing); running `npm run build` first.');
  run('npm', ['run', 'build']);
}
run('astro', ['check']);
