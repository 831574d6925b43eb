/**
 * One host check for both doors (src/proposal/doors/gates.ts), by the rules of the MCP SDK's own
 * helpers: for every Host and Origin below, it refuses exactly when validateHostHeader or
 * validateOriginHeader would, given the same allowlist.
 */
import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { allowedHosts, foreignHost } from '../../src/proposal/doors/gates.ts';
import { readConfig } from '../../src/proposal/config.ts';

const env: Record<string, string> = {
  URL: 'https://kestrel.netlify.app',
  DEPLOY_PRIME_URL: 'https://deploy-preview-7--kestrel.netlify.app',
};
// The deploy's own hosts as the configuration reads them (URL, DEPLOY_URL, DEPLOY_PRIME_URL).
const allowed = allowedHosts('https://kestrelcloud.example', readConfig((name) => env[name]).config.deployUrls);

const hosts = [
  'kestrelcloud.example',
  'KestrelCloud.example:443',
  '127.0.0.1:8888',
  'localhost',
  '[::1]:3000',
  'kestrel.netlify.app',
  'deploy-preview-7--kestrel.netlify.app',
  'evil.example',
  'kestrelcloud.example.evil.example',
  '127.0.0.1.nip.io',
  'localhost:99999',
  'a@b',
  '',
];
const origins = [
  null,
  '',
  'https://kestrelcloud.example',
  'http://127.0.0.1:8888',
  'http://evil.example',
  'null',
  'file://',
  'https://localhost.evil.example',
];

describe('the host check both doors share', () => {
  it('refuses exactly what the SDK helpers refuse, Host first', () => {
    for (const host of hosts) {
      for (const origin of origins) {
        const headers = new Headers({ host, ...(origin === null ? {} : { origin }) });
        const req = new Request('http://127.0.0.1/mcp', { headers });
        const sdkHost = validateHostHeader(host, [...allowed]);
        const sdkOrigin = validateOriginHeader(origin, [...allowed]);
        const expected = !sdkHost.ok ? 'Host' : !sdkOrigin.ok ? 'Origin' : undefined;
        expect(foreignHost(req, allowed), `${host} ${origin}`).toBe(expected);
      }
    }
  });

  it('lets the canonical, deploy and loopback hosts in, and nothing else', () => {
    expect([...allowed].sort()).toEqual(
      [
        '[::1]',
        '127.0.0.1',
        'deploy-preview-7--kestrel.netlify.app',
        'kestrel.netlify.app',
        'kestrelcloud.example',
        'localhost',
      ].sort(),
    );
  });
});
