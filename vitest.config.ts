import { defineConfig } from 'vitest/config';

/**
 * The HTTP suites run twice, once per dialect (each test file on its own fresh database);
 * unit tests run once, and so do the studio's browser tests (Chromium against a started app on SQLite).
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'sqlite', include: ['test/http/**/*.test.ts'], env: { VELLUM_TEST_DIALECT: 'sqlite' } } },
      { extends: true, test: { name: 'postgres', include: ['test/http/**/*.test.ts'], env: { VELLUM_TEST_DIALECT: 'postgres' } } },
      { extends: true, test: { name: 'browser', include: ['test/browser/**/*.test.ts'], env: { VELLUM_TEST_DIALECT: 'sqlite' } } },
    ],
  },
});
