import { afterAll, beforeAll, expect, it } from 'vitest';
import { screenshot, startBrowserApp, type BrowserApp } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

// The API docs page (docs/api.md, "OpenAPI") in a real browser: Swagger UI renders the document
// under the page's CSP, from this server's files alone.
let b: BrowserApp;
beforeAll(async () => {
  b = await startBrowserApp({ schemas: TEST_SCHEMAS });
});
afterAll(() => b?.close());

it('renders the operations and the type schemas, with no CSP violation and no other origin asked', async () => {
  const page = await b.newPage();
  const problems: string[] = [];
  const elsewhere: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(b.origin) && !r.url().startsWith('data:')) elsewhere.push(r.url());
  });
  await page.goto(`${b.origin}/api/docs`);
  await page.getByText('/api/auth/login', { exact: true }).first().waitFor();
  await page
    .getByRole('button', { name: /^Post\b/ })
    .first()
    .waitFor();
  await screenshot(page, 'api-docs');
  expect(problems).toEqual([]);
  expect(elsewhere).toEqual([]);
});
