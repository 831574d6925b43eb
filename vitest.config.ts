import { defineConfig } from 'vitest/config';

// Three projects: `unit` needs nothing built; `built` builds the site once and reads dist/ and
// .generated/; `e2e` drives `npm start` and a real browser over loopback.
// Every project checks that no test wrote into the checkout's own local Blobs store.
const OWN_STORE = 'tests/setup/own-store-untouched.ts';
// Before any test: a missing Java or Chromium is named with the command that installs it.
const PREREQUISITES = 'tests/setup/prerequisites.ts';
// Every property test draws from the run's one fast-check seed (FC_SEED, else a fixed one), said once.
const FC_SEED = { globalSetup: 'tests/setup/print-fc-seed.ts', setupFiles: ['tests/setup/fast-check-seed.ts'] };

export default defineConfig({
  test: {
    // The default output, then how long each layer took (tests/setup/layer-times.ts).
    reporters: ['default', './tests/setup/layer-times.ts'],
    // The function's own JSON log lines (src/proposal/submit/log.ts) stay off the output at every
    // level; a test that checks them spies on the console (tests/helpers/log-lines.ts).
    onConsoleLog: (log) => !log.startsWith('{"source":"proposal-submit"'),
    // Two files at a time even on 2 cores (vitest's default there is one): most of a test's time is
    // spent waiting on a server, a browser or a lease, not on the CPU.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          globalSetup: [PREREQUISITES, FC_SEED.globalSetup, OWN_STORE],
          setupFiles: FC_SEED.setupFiles,
          testTimeout: 20_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'built',
          include: ['tests/built/**/*.test.ts'],
          globalSetup: [PREREQUISITES, FC_SEED.globalSetup, 'tests/setup/build-once.ts', OWN_STORE],
          setupFiles: FC_SEED.setupFiles,
          testTimeout: 60_000,
          hookTimeout: 240_000,
          // Fixture builds (tests/helpers/fixture-build.ts) run astro build in the checkout, whose .astro/
          // holds one build's prerender chunks at a time: one file of this project at a time.
          fileParallelism: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // One build of the site for every npm start of the run (tests/setup/build-site-once.ts).
          globalSetup: [PREREQUISITES, FC_SEED.globalSetup, 'tests/setup/build-site-once.ts', OWN_STORE],
          setupFiles: FC_SEED.setupFiles,
          // Browsers and servers want the cores the other projects use: these run after them. Each
          // npm start serves from a folder of its own (scripts/serve/server-dir.ts), so files run side by side.
          testTimeout: 120_000,
          hookTimeout: 240_000,
          // A poll waits for what it needs as long as a busy machine may take, never a fixed second.
          expect: { poll: { timeout: 60_000 } },
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
