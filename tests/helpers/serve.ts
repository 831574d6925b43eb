/** Runs `npm start` (build, then netlify serve with the function) on a free loopback port, and stops it by its PID. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { root } from './dist.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningSite {
  url: string;
  pid: number;
  /** Everything the process printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}/llms.txt`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`npm start did not serve ${url} within ${timeoutMs} ms:\n${output()}`);
}

/** `port` defaults to a free one; pass one to build the site with its own local URL (`SITE_URL`). */
export async function startSite(env: Record<string, string> = {}, timeoutMs = 180_000, port?: number): Promise<RunningSite> {
  port ??= await freePort();
  let log = '';
  // detached: the process gets its own group, so stop() ends npm, netlify and its children together.
  const child = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, PORT: String(port), CI: 'true', ASTRO_TELEMETRY_DISABLED: '1', NETLIFY_TELEMETRY_DISABLED: '1' },
  });
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const output = () => log.slice(-6000);
  const stop = async () => {
    if (child.exitCode !== null || !child.pid) return;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilServing(url, child, output, timeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid!, output, stop };
}
