/** Spawning helpers: project paths, timed child processes, and the JSON hand-back of child benchmarks. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The project root (/work/main), whatever the current directory. */
export const root = fileURLToPath(new URL('../../', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit. */
  ms: number;
}

/** Start of a progress line (see progress()); the only stderr lines a child's run shows live. */
const PROGRESS_PREFIX = '  … ';

/**
 * Runs a command to completion, collecting its output; never throws on a non-zero exit. With
 * echoProgress, the child's progress lines are shown as they come; the rest of its stderr (the
 * function's JSON event log, thousands of lines in the sweep) stays in `stderr` for a failure report.
 */
export function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; echoProgress?: boolean } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: options.cwd ?? root,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let shown = 0; // stderr up to here has been looked at for progress lines
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (!options.echoProgress) return;
      const end = stderr.lastIndexOf('\n') + 1;
      for (const line of stderr.slice(shown, end).split('\n'))
        if (line.startsWith(PROGRESS_PREFIX)) process.stderr.write(`${line}\n`);
      shown = Math.max(shown, end);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

/** Environment of the children: telemetry and colour off, Node 24 of the project first on PATH. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${root}node_modules/.bin:${process.env['PATH'] ?? ''}`,
    ASTRO_TELEMETRY_DISABLED: '1',
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  };
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Prefix of the one stdout line a child benchmark uses to hand its result back. */
export const RESULT_PREFIX = 'BENCH_RESULT ';

/** Called by a child benchmark: prints its result for the parent. */
export function handBack(result: unknown): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/**
 * Runs `node <script>` of this folder in a fresh process (its own heap and JIT state) and
 * returns the result it handed back. Progress lines on its stderr are shown as they come.
 */
export async function runChildBench<T>(script: string, env: NodeJS.ProcessEnv = childEnv()): Promise<T> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const result = await run(process.execPath, [path], { env, echoProgress: true });
  const line = result.stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
  if (result.code !== 0 || line === undefined) {
    throw new Error(
      `${script} failed (exit ${result.code}):\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`,
    );
  }
  return JSON.parse(line.slice(RESULT_PREFIX.length)) as T;
}

/** A progress line on stderr, so stdout stays the report. */
export function progress(message: string): void {
  process.stderr.write(`${PROGRESS_PREFIX}${message}\n`);
}
