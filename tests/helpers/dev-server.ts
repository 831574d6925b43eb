/**
 * Runs `npm run dev` (netlify dev + Astro's dev server) on free loopback ports, in a copy of the
 * checkout (like `npm start` in scripts/local-site/start-site.ts): the function's data (.generated/) and local Blobs
 * (.netlify/blobs-serve, where the function's sweep keeps its lock) stay out of the developer's
 * own checkout. Stops it by its PID.
 */
import { rmSync } from 'node:fs';
import { freePort } from '../../scripts/free-port.ts';
import { spawnLocal } from '../../scripts/local-site/process-group.ts';
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
  const child = spawnLocal(['run', 'dev'], { cwd: dir, port, env: { ...inherited, ...env } });
  const { url, output } = child;
  const stop = async () => {
    await child.stop();
    removeCopy();
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode() !== null) {
      removeCopy();
      throw new Error(`npm run dev exited with ${child.exitCode()}:\n${output()}`);
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
  return { url, pid: child.pid, output, stop };
}
