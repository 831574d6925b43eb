/**
 * `npm run dev`: the live preview for editors, on PORT (default 8888).
 *
 * 1. Astro's dev server starts on a free loopback port and hot-reloads content.
 * 2. The dev server writes the proposal function's data (.generated/) before it answers its first
 *    request, and again on every edit (src/integrations/dev-preview.ts): netlify dev bundles the
 *    function as soon as the dev server's port opens, and would otherwise keep data from an earlier run.
 * 3. netlify dev (offline) serves PORT: the function, netlify.toml's redirects and headers, and
 *    Astro's pages behind them. Its framework command only attaches to the running Astro server.
 *
 * Stopping this process, or either server ending, stops all of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DOCUMENT_PATHS } from '../src/contract/paths.ts';
import { freePort } from './free-port.ts';
import { createInterface } from 'node:readline';
import { errorsOnce } from './dev/errors-once.ts';
import { isNoise } from './serve/quiet.ts';
import { listenHost, netlifyChildEnv } from './serve/listen-host.ts';
import { runSchedule, scheduleOf, SCHEDULED_FUNCTION } from './serve/schedule.ts';
import { join } from 'node:path';
import { LOOPBACK_DIRECTORY_ENV } from '../src/contract/web-bot-auth.ts';

const port = Number(process.env['PORT'] ?? 8888);
const root = fileURLToPath(new URL('../', import.meta.url));
const STARTUP_MS = 120_000;
/** An error block is complete once the output pauses this long. */
const QUIET_MS = 150;

/** Astro's banner names its inner address, which is not the one to open: left out. */
const ASTRO_BANNER = /^\s*(?:astro\s+v\d|┃\s*(?:Local|Network)\b)/;
// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters
const plain = (line: string) => line.replace(/\u001b\[[0-9;]*m/g, '');

/** Astro's output, with each content mistake printed once (./dev/errors-once.ts) and without its inner address. */
function printAstro(child: ChildProcess): void {
  const filter = errorsOnce();
  let quiet: NodeJS.Timeout | undefined;
  const print = (lines: string[]) => lines.forEach((line) => process.stdout.write(`${line}\n`));
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream! }).on('line', (line) => {
      if (ASTRO_BANNER.test(plain(line))) return;
      print(filter.line(line));
      clearTimeout(quiet);
      quiet = setTimeout(() => print(filter.idle()), QUIET_MS);
    });
  }
}

/** netlify dev's output without the hints of a healthy start (./serve/quiet.ts); the address to open comes last. */
function printNetlify(child: ChildProcess): void {
  let announced = false;
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: stream! }).on('line', (line) => {
      if (!announced && /Local dev server ready/.test(line)) {
        announced = true;
        process.stdout.write(`\nnpm run dev: open http://localhost:${port}\n\n`);
      }
      // Before the address, netlify dev's blank lines only frame what was left out.
      if (!isNoise(line) && (announced || line.trim() !== '')) out.write(`${line}\n`);
    });
  }
}

const children: ChildProcess[] = [];
function start(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  print?: (child: ChildProcess) => void,
): ChildProcess {
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Piped output keeps its colours where the terminal shows them.
    env: { ...process.env, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}), ...env },
  });
  print?.(child);
  children.push(child);
  child.once('exit', (code) => {
    for (const other of children) if (other !== child && other.exitCode === null) other.kill('SIGTERM');
    process.exit(code ?? 0);
  });
  return child;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const child of children) child.kill(signal);
  });
}

const [astroPort, functionsPort] = [await freePort(), await freePort()];
const astroOrigin = `http://127.0.0.1:${astroPort}`;
// Absolute URLs in the preview point at the preview itself (src/integrations/site-url.ts).
start(
  'astro',
  ['dev', '--host', '127.0.0.1', '--port', String(astroPort)],
  { SITE_URL: `http://localhost:${port}` },
  printAstro,
);

// The dev server answers its first request once it has written the function's data (src/integrations/dev-preview.ts).
const deadline = Date.now() + STARTUP_MS;
for (;;) {
  try {
    const res = await fetch(`${astroOrigin}${DOCUMENT_PATHS.proposalApi}.json`);
    if (res.ok) break;
    throw new Error(`${DOCUMENT_PATHS.proposalApi}.json answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  } catch (error) {
    if (Date.now() > deadline) {
      console.error(
        `dev: the Astro dev server did not serve the proposal contract within ${STARTUP_MS / 1000} s: ${(error as Error).message}`,
      );
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

start(
  'netlify',
  [
    'dev',
    '--offline',
    '--internal-disable-edge-functions',
    '--port',
    String(port),
    '--target-port',
    String(astroPort),
    '--functions-port',
    String(functionsPort),
    '--command',
    `node scripts/dev/attach.ts ${astroPort}`,
  ],
  // The local Blobs server shares its process with every invocation: see src/proposal/store/blobs.ts (timeFactor).
  {
    BROWSER: 'none',
    // netlify dev's proxy (PORT), functions and Blobs servers listen on HOST, loopback by default.
    ...netlifyChildEnv(listenHost()),
    STORE_TIMEOUT_FACTOR: process.env['STORE_TIMEOUT_FACTOR'] ?? '2',
    // Signed requests from agents on loopback are checked locally (src/contract/web-bot-auth.ts).
    [LOOPBACK_DIRECTORY_ENV]: '1',
  },
  printNetlify,
);
// netlify dev fires no schedule: the scheduled function runs on its cadence all the same (./serve/schedule.ts).
runSchedule(
  scheduleOf(join(root, 'netlify', 'functions', `${SCHEDULED_FUNCTION}.mts`)),
  () => `http://127.0.0.1:${port}`,
);
