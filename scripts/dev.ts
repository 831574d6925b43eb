/**
 * `npm run dev`: the live preview for editors. netlify dev (offline) on PORT (default 8888)
 * proxies Astro's dev server, which hot-reloads content, and serves the proposal function, the
 * redirects and the headers of netlify.toml. Astro and the functions server take free loopback
 * ports, so a preview can run beside `npm start` or another preview. Stopping this process stops all.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const port = Number(process.env['PORT'] ?? 8888);
const root = fileURLToPath(new URL('../', import.meta.url));

/** A port the OS reports free on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

// netlify dev bundles the function before Astro has started, and the function imports the data
// in .generated/; the dev server rewrites it on every content change, but it must exist first.
if (!existsSync(`${root}.generated/validators.mjs`) || !existsSync(`${root}.generated/knowledge.json`)) {
  console.log('dev: .generated/ is missing, so one build runs first');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const [astroPort, functionsPort] = [await freePort(), await freePort()];
const netlify = spawn(
  'netlify',
  [
    'dev',
    '--offline',
    '--internal-disable-edge-functions',
    '--port', String(port),
    '--target-port', String(astroPort),
    '--functions-port', String(functionsPort),
    '--command', `astro dev --host 127.0.0.1 --port ${astroPort}`,
  ],
  { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, BROWSER: 'none' } },
);
netlify.once('exit', (code, signal) => process.exit(typeof code === 'number' ? code : signal ? 0 : 1));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => netlify.kill(signal));
