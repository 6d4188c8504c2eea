import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongFirstSequencer } from './test/long-first-sequencer.js';

/**
 * Tiers (docs/testing.md): `unit` holds pure rules only (no process, database, listening socket or
 * tsc); `integration` the storage engines, network guards and image pipeline below HTTP; the HTTP
 * suites run twice, once per dialect (each test file on its own fresh database); `cli` spawns the
 * built CLI and server or runs tsc; the studio's browser tests drive Chromium against a started app
 * on SQLite.
 */
export default defineConfig({
  test: {
    // One worker runs many files and keeps their shared modules loaded (the server's whole module
    // graph): importing it afresh for every file cost more than half of the run. Each file still
    // starts its own app on its own database; a suite that must load modules afresh resets them
    // itself (test/http/openapi.test.ts).
    isolate: false,
    // A worker per core, not Vitest's default of one fewer: the suites spend much of their time
    // waiting on PostgreSQL, Chromium and CLI child processes, so the cores stay busy (on two
    // cores the whole run went from 15 to 13 minutes).
    maxWorkers: availableParallelism(),
    // The package tier's minute-long file first, so it never runs alone at the end.
    sequence: { sequencer: LongFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: too short on a loaded two-core CI machine, where a
    // page's next render or a background job can take longer (the browser suites failed so).
    expect: { poll: { timeout: 10_000 } },
    // `npm run coverage` only: a report to read, not a gate (no thresholds). Code run in child
    // processes (the CLI tier) or in Chromium is not counted.
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**'],
      reporter: ['text-summary', 'html'],
      reportsDirectory: 'coverage',
    },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'sqlite', include: ['test/http/**/*.test.ts'], env: { VELLUM_TEST_DIALECT: 'sqlite' } } },
      { extends: true, test: { name: 'postgres', include: ['test/http/**/*.test.ts'], env: { VELLUM_TEST_DIALECT: 'postgres' } } },
      // Each test of this tier starts node processes or the compiler, dozens for some (every
      // command's --help): on a loaded two-core machine 30 s was too short for them.
      { extends: true, test: { name: 'cli', include: ['test/cli/**/*.test.ts'], testTimeout: 120_000 } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'], env: { VELLUM_TEST_DIALECT: 'sqlite' } } },
      // The client's types, checked by the compiler: what calls infer, and what must not compile.
      {
        extends: true,
        test: {
          name: 'types',
          typecheck: { enabled: true, only: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.test.json' },
        },
      },
      // npm pack, the scaffold and an install of the tarballs outside the repository: minutes, most
      // of them building the SQLite driver.
      { extends: true, test: { name: 'package', include: ['test/package/**/*.test.ts'], testTimeout: 900_000 } },
    ],
  },
});
