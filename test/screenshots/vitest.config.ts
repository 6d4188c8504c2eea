import { defineConfig } from 'vitest/config';

/** The studio's screenshots for docs/studio.md: run on demand only (test/screenshots/studio-screenshots.ts). */
export default defineConfig({
  test: { include: ['test/screenshots/studio-screenshots.ts'], env: { VELLUM_TEST_DIALECT: 'sqlite' }, hookTimeout: 60_000 },
});
