import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { signIn, type BrowserApp } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The document list with a bounded total (docs/api.md, "Totals"): a filter counted only up to
// `documents.countLimit` says "more than" and pages on while pages come back full.
let b: BrowserApp;
let admin: string;

useBrowserApp({ schemas: TEST_SCHEMAS, documents: { countLimit: 12 }, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));

describe('studio document list totals', () => {
  it('a bounded total reads "More than N" and Next stays on while pages are full', async () => {
    for (let i = 1; i <= 45; i++) {
      const payload = { name: `Company ${String(i).padStart(2, '0')}`, country: i <= 35 ? 'de' : 'fr' };
      const res = await b.t.request({ method: 'POST', url: '/api/documents/company', token: admin, payload });
      expect(res.statusCode, res.body).toBe(201);
    }
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/documents/company?sort=name');
    // No filter: the maintained count, exact past the limit.
    await page.getByText('45 documents · page 1 of 3').waitFor();
    // 35 match, counted only to 12: a lower bound.
    await page.getByLabel('Country').selectOption('de');
    await page.getByText('More than 12 documents · page 1').waitFor();
    const next = page.getByRole('button', { name: 'Next page' });
    expect(await next.isEnabled()).toBe(true); // page 1 is full (20 of 35)
    await next.click();
    await page.getByText('More than 12 documents · page 2').waitFor();
    await expect.poll(() => page.getByRole('row').count()).toBe(16); // header + the last 15
    expect(await next.isDisabled()).toBe(true);
    // 10 match: under the limit the count is exact again.
    await page.getByLabel('Country').selectOption('fr');
    await page.getByText('10 documents · page 1 of 1').waitFor();
    await page.close();
  });
});
