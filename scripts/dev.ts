/**
 * `npm run dev`: the live preview for editors, on PORT (default 8888).
 *
 * 1. Astro's dev server starts on a free loopback port and hot-reloads content.
 * 2. The proposal function's data (.generated/) is written from it, before the function loads:
 *    netlify dev bundles the function as soon as the dev server's port opens, and would
 *    otherwise keep data from an earlier run. src/build/dev-preview.ts rewrites it on every edit.
 * 3. netlify dev (offline) serves PORT: the function, netlify.toml's redirects and headers, and
 *    Astro's pages behind them. Its framework command only attaches to the running Astro server.
 *
 * Stopping this process, or either server ending, stops all of them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { writeFunctionDataFrom } from '../src/build/function-data.ts';
import { freePort } from './free-port.ts';

const port = Number(process.env['PORT'] ?? 8888);
const root = fileURLToPath(new URL('../', import.meta.url));
const STARTUP_MS = 120_000;

const children: ChildProcess[] = [];
function start(command: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...env },
  });
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
// Canonical URLs in the preview point at the preview itself, as netlify dev's URL does.
start('astro', ['dev', '--host', '127.0.0.1', '--port', String(astroPort)], { URL: `http://localhost:${port}` });

const deadline = Date.now() + STARTUP_MS;
for (;;) {
  try {
    await writeFunctionDataFrom(astroOrigin, `${root}.generated`);
    break;
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
  // The local Blobs server shares its process with every invocation: see src/proposal/store/limits.ts.
  { BROWSER: 'none', STORE_TIMEOUT_FACTOR: process.env['STORE_TIMEOUT_FACTOR'] ?? '4' },
);
