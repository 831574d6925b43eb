/**
 * Each `npm start` serves from a folder of its own: a copy of the checkout's files, with its own
 * build (dist/, .generated/) and netlify serve's own state (.netlify/functions and the rest), so
 * two servers on two ports never serve each other's build. Before this, a second npm start in one
 * checkout rebuilt the shared dist/ and .generated/ for its port and re-bundled the shared
 * function, and the first server then published the second's address and refused its own Origin.
 * The local Blobs store is the one thing shared: .netlify/blobs-serve links to the checkout's, so
 * every server and `npm run inbox` see one inbox.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

/** What a copy never takes: installed packages (linked instead), builds, caches, local state. */
const NOT_COPIED = new Set(['.git', 'node_modules', 'dist', '.generated', '.build', '.netlify', '.astro']);

/**
 * Copies `from`'s tracked and new files (git's view, so nothing it ignores) to `to` and links its
 * node_modules; without git, everything but NOT_COPIED at the top.
 */
export function copyTree(from: string, to: string): void {
  let files: string[] | undefined;
  try {
    files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: from,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\0')
      .filter(Boolean);
  } catch {
    // not a git checkout (an unpacked archive)
  }
  if (files) {
    for (const file of files) {
      const target = join(to, file);
      mkdirSync(dirname(target), { recursive: true });
      try {
        cpSync(join(from, file), target);
      } catch {
        // deleted in the work tree but not yet in the index
      }
    }
  } else {
    cpSync(from, to, { recursive: true, filter: (src) => !NOT_COPIED.has(relative(from, src).split(sep)[0]!) });
  }
  symlinkSync(join(from, 'node_modules'), join(to, 'node_modules'), 'dir');
}

const PREFIX = 'npm-start-';

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Folders of servers that were killed before they could remove theirs (the name holds the PID). */
function removeAbandoned(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1]);
    if (pid && !running(pid)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

/**
 * A fresh folder for one server, under the system's temp folder. `existingBuild`: the checkout's
 * dist/ and .generated/ go with it (npm start -- --no-build). The caller removes it on exit.
 */
export function serverDir(checkout: string, existingBuild: boolean): string {
  removeAbandoned();
  const dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
  copyTree(checkout, dir);
  // .env is ignored by git, yet it holds the configuration netlify serve reads (.env.example).
  if (existsSync(join(checkout, '.env'))) cpSync(join(checkout, '.env'), join(dir, '.env'));
  if (existingBuild) {
    for (const part of ['dist', '.generated']) cpSync(join(checkout, part), join(dir, part), { recursive: true });
  }
  const store = join(checkout, '.netlify', 'blobs-serve');
  mkdirSync(store, { recursive: true });
  mkdirSync(join(dir, '.netlify'));
  symlinkSync(store, join(dir, '.netlify', 'blobs-serve'), 'dir');
  return dir;
}
