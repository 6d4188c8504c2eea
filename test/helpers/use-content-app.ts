import { startTestApp, useAdminApp, type TestApp } from './app.js';
import { TEST_SCHEMAS } from './schemas.js';

/**
 * The frame of a suite about content (useAdminApp with the test content model and nothing else
 * configured, unless `config` adds to it): `ready` hands the app and the admin's token to the
 * suite's own variables.
 */
export function useContentApp(ready: (t: TestApp, admin: string) => void, config: Record<string, unknown> = {}): void {
  useAdminApp(() => startTestApp({ schemas: TEST_SCHEMAS, ...config }), ready);
}

/**
 * For suites that write delivery rows of their own and read them back: no worker picks them up
 * (docs/webhooks.md, "Delivery").
 */
export const NO_WEBHOOK_WORKER = { webhooks: { worker: false } };
