/**
 * Runs `npm run dev` (netlify dev + Astro's dev server) on free loopback ports, in a copy of the
 * checkout (like `npm start` in scripts/local-site/start-site.ts): the function's data (.generated/) and local Blobs
 * (.netlify/blobs-serve, where the function's sweep keeps its lock) stay out of the developer's
 * own checkout. Stops it by its PID.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { freePort } from '../../scripts/free-port.ts';
import { copyCheckout } from '../../scripts/local-site/start-site.ts';

export interface DevServer {
  url: string;
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
}

export async function startDev(env: Record<string, string>, timeoutMs = 120_000): Promise<DevServer> {
  const port = await freePort();
  const dir = copyCheckout();
  const removeCopy = () => rmSync(dir, { recursive: true, force: true });
  // vitest sets NODE_ENV=test, under which Astro's dev server serves no routes; an editor's shell has none.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV' && !key.startsWith('VITEST')),
  );
  let log = '';
  // detached: its own process group, so stop() ends npm, netlify, astro and their children together.
  const child = spawn('npm', ['run', 'dev'], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...inherited,
      ...env,
      PORT: String(port),
      CI: 'true',
      ASTRO_TELEMETRY_DISABLED: '1',
      NETLIFY_TELEMETRY_DISABLED: '1',
    },
  });
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const output = () => log.slice(-6000);
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    removeCopy();
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      removeCopy();
      throw new Error(`npm run dev exited with ${child.exitCode}:\n${output()}`);
    }
    // Ready when the proxy, the Astro dev server and the function all answer.
    const ready = await fetch(`${url}/api/proposal`, { method: 'OPTIONS', signal: AbortSignal.timeout(3000) })
      .then(
        async (res) => res.status < 300 && (await fetch(`${url}/llms.txt`, { signal: AbortSignal.timeout(10_000) })).ok,
      )
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`npm run dev did not serve ${url} within ${timeoutMs} ms:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { url, pid: child.pid!, output, stop };
}
