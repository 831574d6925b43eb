import { defineConfig } from 'vitest/config';

// Three projects: `unit` needs nothing built; `built` builds the site once and reads dist/ and
// .generated/; `e2e` drives `npm start` and a real browser over loopback.
export default defineConfig({
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], testTimeout: 20_000, sequence: { groupOrder: 0 } },
      },
      {
        test: {
          name: 'built',
          include: ['tests/built/**/*.test.ts'],
          globalSetup: ['tests/setup/build-once.ts'],
          testTimeout: 60_000,
          hookTimeout: 240_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // `npm start` builds dist/ again, so these run after the projects that read it.
          testTimeout: 120_000,
          hookTimeout: 240_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
