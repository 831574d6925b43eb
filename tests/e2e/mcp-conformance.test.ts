/**
 * The official MCP conformance suite (npm @modelcontextprotocol/conformance) against /mcp under
 * `npm start`: the server scenarios that apply to a stateless server with tools only. The suite's
 * other active scenarios call the reference server's own test tools, prompts and resources.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';

const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;
const CLI = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/conformance/dist/index.js');

let site: RunningSite;
const out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));

beforeAll(async () => {
  site = await startSite({ CONSENT_SECRET: 'conformance-consent-secret-0123456789abcdef' });
});

afterAll(async () => {
  await site?.stop();
  rmSync(out, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Runs one scenario; its checks.json is the verdict (the CLI also exits non-zero on a failure). */
async function scenario(name: string): Promise<{ code: number; checks: Check[] }> {
  const dir = join(out, name);
  // The DNS rebinding scenario needs a loopback URL by name: localhost, 127.0.0.1 or [::1].
  const url = new URL('/mcp', site.url).href;
  const code = await promisify(execFile)(
    process.execPath,
    [CLI, 'server', '--url', url, '--scenario', name, '-o', dir],
    {
      timeout: 120_000,
    },
  ).then(
    () => 0,
    (error: { code?: number }) => error.code ?? 1,
  );
  const file = readdirSync(dir, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('checks.json'));
  const checks = file ? (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Check[]) : [];
  return { code, checks };
}

describe('the MCP conformance suite, server scenarios of a tools-only stateless server', () => {
  for (const name of SCENARIOS) {
    it(`${name} passes`, async () => {
      const { code, checks } = await scenario(name);
      console.log(`${name}: ${checks.map((c) => `${c.id} ${c.status}`).join(', ')}`);
      expect(checks.length, name).toBeGreaterThan(0);
      expect(
        checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage}`),
        name,
      ).toEqual([]);
      expect(code, name).toBe(0);
    });
  }
});
