import { execFileSync } from 'node:child_process';

/** Builds the site once for the projects that read dist/ and .generated/. */
export default function setup(): void {
  execFileSync('npm', ['run', 'build'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
  });
}
