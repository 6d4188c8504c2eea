import { startTestApp, useAdminApp, type TestApp } from './app.js';
import { TEST_SCHEMAS } from './schemas.js';

/**
 * The frame of a suite about content (useAdminApp with the test content model and nothing else
 * configured): `ready` hands the app and the admin's token to the suite's own variables.
 */
export function useContentApp(ready: (t: TestApp, admin: string) => void): void {
  useAdminApp(() => startTestApp({ schemas: TEST_SCHEMAS }), ready);
}
