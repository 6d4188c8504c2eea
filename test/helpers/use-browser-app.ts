import { afterAll, beforeAll } from 'vitest';
import { ADMIN } from './app.js';
import { startBrowserApp, type BrowserApp } from './browser.js';

/**
 * A login rate limit no browser suite reaches: most of its tests sign in again through the form,
 * all from 127.0.0.1 (rate limits have their own test, test/http/rate-limit.test.ts).
 */
export const MANY_SIGN_INS = { security: { rateLimit: { login: { windowMs: 900_000, max: 1000 } } } };

/**
 * The usual frame of a browser suite: one app and Chromium for the file, the configured admin
 * signed in through the API, both closed after the last test. The app starts inside beforeAll,
 * so `config` may read what earlier hooks set up (a mail catcher's URL); `ready` hands the app
 * and the admin's token to the suite's own variables.
 */
export function useBrowserApp(config: Parameters<typeof startBrowserApp>[0], ready: (b: BrowserApp, admin: string) => void): void {
  let app: BrowserApp | undefined;
  beforeAll(async () => {
    app = await startBrowserApp(config);
    ready(app, await app.t.login(ADMIN.username, ADMIN.password));
  });
  afterAll(() => app?.close());
}
