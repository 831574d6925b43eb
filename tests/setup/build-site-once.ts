/**
 * vitest globalSetup of the e2e project: builds the site once, for every `npm start` of the run
 * (scripts/local-site/prebuilt.ts); startSite gives each server a copy at its own address and
 * starts it with `--no-build`. The build lives in a temporary folder, removed after the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildForServers, PREBUILT_SITE_ENV } from '../../scripts/local-site/prebuilt.ts';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'site-build-'));
  buildForServers(dir);
  // Test workers start after the global setups and inherit this.
  process.env[PREBUILT_SITE_ENV] = dir;
  return () => {
    delete process.env[PREBUILT_SITE_ENV];
    rmSync(dir, { recursive: true, force: true });
  };
}
