/**
 * An npm script (`npm start`, `npm run dev`) run in its own process group on a loopback port,
 * so stopping it ends npm, netlify and every child together, by its PID.
 */
import { spawn } from 'node:child_process';

export interface LocalProcess {
  url: string;
  pid: number;
  exitCode: () => number | null;
  /** The last of everything it printed, for failure messages. */
  output: () => string;
  /** Ends the whole group (SIGKILL after 5 s) and resolves once it exited. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

export function spawnLocal(
  args: string[],
  options: { cwd: string; port: number; env: NodeJS.ProcessEnv },
): LocalProcess {
  let log = '';
  const child = spawn('npm', args, {
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...options.env,
      PORT: String(options.port),
      CI: 'true',
      ASTRO_TELEMETRY_DISABLED: '1',
      NETLIFY_TELEMETRY_DISABLED: '1',
    },
  });
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  return {
    url: `http://127.0.0.1:${options.port}`,
    pid: child.pid!,
    exitCode: () => child.exitCode,
    output: () => log.slice(-6000),
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || !child.pid) return;
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
