import { describe, expect, it } from 'vitest';
import { isNoise } from '../../scripts/serve/quiet.ts';

// What `npm start` and `npm run dev` print on a healthy start, as netlify-cli 27 and Node 24 wrote it here.
const HEALTHY = [
  '⬥ Ignored general context env var: LANG (defined in process)',
  '⬥ Injected netlify.toml file env vars: NODE_VERSION, ASTRO_TELEMETRY_DISABLED',
  "⬥ Using simple static server because '[dev.framework]' was set to '#static'",
  '⬥ Edge functions are disabled. Run without the --internal-disable-edge-functions flag to enable them.',
  '⬥ Netlify Blobs running in sandbox mode for local development. Refer to https://ntl.fyi/local-blobs for more information.',
  '\u001b[36m⬥\u001b[39m Loaded function proposal',
  '   ╭──────────────────────── ⬥  ────────────────────────╮',
  '   │   Local dev server ready: http://localhost:42697   │',
  '⠋ Waiting for #custom dev server to be ready on port 39475',
  '✔ #custom dev server ready on port 39475',
  '(node:16272) [DEP0060] DeprecationWarning: The `util._extend` API is deprecated. Please use Object.assign() instead.',
  '(Use `node --trace-deprecation ...` to show where the warning was created)',
];

describe('quiet, truthful terminals', () => {
  it.each(HEALTHY)('leaves out a line a healthy start prints: %s', (line) => expect(isNoise(line)).toBe(true));

  it.each([
    "⬥ Could not acquire required 'port': '8891'",
    '⬥ Failed to load function proposal',
    'Request from 127.0.0.1: POST /api/proposal',
    '{"source":"proposal-submit","level":"warn","event":"crm_failed"}',
    'Netlify Build Complete',
  ])('keeps what a person must read: %s', (line) => expect(isNoise(line)).toBe(false));
});
