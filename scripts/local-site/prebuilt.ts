/**
 * One build of the site for many local servers (the end-to-end tests start a dozen): the build
 * is made once for a placeholder host, and each server gets a copy with its own address in
 * place of the placeholder. A build is otherwise the same for every port: SITE_URL only sets
 * the absolute URLs it publishes (src/integrations/site-url.ts).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './dist.ts';
import { SEND_LIMIT_SPECS } from '../../src/contract/send-limits.ts';

/** The host the shared build publishes; `.invalid` can never be a real one (RFC 2606). */
const PLACEHOLDER_HOST = 'site-origin.invalid';
/** Names the shared build for startSite in the processes that run the tests. */
export const PREBUILT_SITE_ENV = 'PREBUILT_SITE';

/**
 * What else the build reads from the environment: the published data handling (retention and
 * send limits, src/contract/data-handling.ts), the content folder, the MCP Registry key and Netlify's deploy context
 * (astro.config.mjs, src/integrations/site-url.ts). A server given any of these builds its own.
 */
const BUILD_INPUTS = [
  'RETENTION_DAYS',
  ...Object.values(SEND_LIMIT_SPECS).map((spec) => spec.variable),
  'CONTENT_DIR',
  // The MCP Registry's proof file is built only with a key (src/lib/agents/mcp-server.ts).
  'MCP_REGISTRY_PUBLIC_KEY',
  'CONTEXT',
  'DEPLOY_PRIME_URL',
];

/** Whether a server started with `env` would build exactly the shared build (but for its address). */
export const sharesBuild = (env: Record<string, string>): boolean => !BUILD_INPUTS.some((name) => name in env);

/** Builds the site once into `dir` (dist/ and .generated/ beneath it), for placeBuild to copy. */
export function buildForServers(dir: string): void {
  const result = spawnSync('node', ['scripts/build.ts'], {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      SITE_URL: `http://${PLACEHOLDER_HOST}`,
      OUT_DIR: join(dir, 'dist'),
      GENERATED_DIR: join(dir, '.generated'),
      ASTRO_TELEMETRY_DISABLED: '1',
    },
  });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${(result.stdout + result.stderr).slice(-4000)}`);
}

/** Copies the shared build into a site's folder, publishing `host` (e.g. localhost:8888) instead. */
export function placeBuild(prebuilt: string, site: string, host: string): void {
  for (const part of ['dist', '.generated']) {
    const target = join(site, part);
    rmSync(target, { recursive: true, force: true });
    cpSync(join(prebuilt, part), target, { recursive: true });
    for (const entry of readdirSync(target, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      const bytes = readFileSync(file);
      // Only text holds the host; a file without it is left byte for byte as built.
      if (bytes.includes(PLACEHOLDER_HOST))
        writeFileSync(file, bytes.toString('utf8').replaceAll(PLACEHOLDER_HOST, host));
    }
  }
}
