/**
 * Runs `npm start` (build, then netlify serve with the function) on a free loopback port, in a
 * copy of the checkout, and stops it by its PID. The copy keeps the test's requests out of the
 * developer's own local Blobs store (.netlify/blobs-serve) and its build out of dist/. When the
 * run made one shared build (PREBUILT_SITE, scripts/local-site/prebuilt.ts) and `env` changes
 * nothing the build reads, the copy gets that build at its own address and `npm start -- --no-build`
 * serves it without building again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './dist.ts';
import { freePort } from '../free-port.ts';
import { spawnLocal, type LocalProcess } from './process-group.ts';
import { placeBuild, PREBUILT_SITE_ENV, sharesBuild } from './prebuilt.ts';
import { copyTree } from '../serve/server-dir.ts';

/** A copy of the checkout's tracked and new files, sharing its node_modules. */
export function copyCheckout(): string {
  const copy = mkdtempSync(join(tmpdir(), 'site-'));
  copyTree(root, copy);
  return copy;
}

export interface RunningSite {
  url: string;
  pid: number;
  /** The copy of the checkout it serves from (its Blobs are under .netlify/blobs-serve). */
  dir: string;
  /** Everything the process printed, for failure messages. */
  output: () => string;
  stop: (options?: { keep?: boolean; signal?: NodeJS.Signals }) => Promise<void>;
}

async function waitUntilServing(
  url: string,
  child: LocalProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode() !== null) throw new Error(`npm start exited with ${child.exitCode()}:\n${output()}`);
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

/** Start attempts when the port chosen free is taken before npm start binds it. */
const PORT_RACE_ATTEMPTS = 3;

/**
 * `port`: a free one by default, chosen again when another process takes it before npm start
 * binds it; a number to build the site with its own local URL (`SITE_URL`), never changed; or
 * the chooser to ask for each attempt.
 */
export async function startSite(
  env: Record<string, string> = {},
  timeoutMs = 180_000,
  dir = copyCheckout(),
  port: number | (() => Promise<number>) = freePort,
): Promise<RunningSite> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSiteOnce(env, timeoutMs, dir, typeof port === 'number' ? port : await port());
    } catch (error) {
      // A port we chose was taken by another process in between: choose again. A port the
      // caller fixed is part of its setup, so that failure is its to see.
      const raced = error instanceof PortTakenError && typeof port !== 'number' && attempt < PORT_RACE_ATTEMPTS;
      if (!raced) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

class PortTakenError extends Error {}

async function startSiteOnce(
  env: Record<string, string>,
  timeoutMs: number,
  dir: string,
  port: number,
): Promise<RunningSite> {
  const prebuilt = sharesBuild(env) ? process.env[PREBUILT_SITE_ENV] : undefined;
  // The address npm start builds for (scripts/serve.ts): SITE_URL when the caller sets one.
  if (prebuilt) placeBuild(prebuilt, dir, new URL(env['SITE_URL'] ?? `http://localhost:${port}`).host);
  const args = prebuilt ? ['start', '--', '--no-build'] : ['start'];
  const child = spawnLocal(args, { cwd: dir, port, env: { ...process.env, ...env } });
  const { url, output } = child;
  /** Stops the whole process group; `keep` leaves the copy for a restart on the same store. */
  const stop = async (options: { keep?: boolean; signal?: NodeJS.Signals } = {}) => {
    await child.stop(options.signal);
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(url, child, output, timeoutMs);
  } catch (error) {
    await child.stop();
    throw /EADDRINUSE/.test(output()) && child.exitCode() !== null
      ? new PortTakenError(error instanceof Error ? error.message : String(error))
      : error;
  }
  return { url, pid: child.pid, dir, output, stop };
}
