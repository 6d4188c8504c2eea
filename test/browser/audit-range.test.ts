import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, startBrowserApp, type BrowserApp } from '../helpers/browser.js';

// The audit log's range of days, sent as since (inclusive) and until (exclusive) (docs/studio.md, "Pages").
let b: BrowserApp;

beforeAll(async () => {
  b = await startBrowserApp({ security: { rateLimit: { login: { windowMs: 900_000, max: 1000 } } } });
});
afterAll(() => b?.close());

describe('the audit log between two days', () => {
  it("today's records show with Until set to today (the day included), not with Until yesterday", async () => {
    const page = await b.newPage();
    await signIn(page, b.origin, ADMIN.username, ADMIN.password, '/studio/admin/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const logins = page.getByRole('cell', { name: 'login', exact: true });
    await logins.first().waitFor();
    // Days as the page's date inputs take them: in the browser's time zone.
    const [today, yesterday] = (await page.evaluate(
      `[0, 1].map((back) => { const d = new Date(); d.setDate(d.getDate() - back); return d.toLocaleDateString('sv'); })`,
    )) as string[];

    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/audit?')) requests.push(r.url());
    });
    await page.getByLabel('Since').fill(today);
    await page.getByLabel('Until').fill(today);
    await expect.poll(() => requests.some((u) => u.includes('until='))).toBe(true);
    await logins.first().waitFor();
    // The day chosen ends at the next midnight: `until` is after `since`.
    const url = new URL(requests.filter((u) => u.includes('until=')).at(-1)!);
    expect(Date.parse(url.searchParams.get('until')!) - Date.parse(url.searchParams.get('since')!)).toBeGreaterThan(0);
    await expectAccessible(page, 'audit page with a range');
    await screenshot(page, 'audit-range');

    await page.getByLabel('Since').fill('');
    await page.getByLabel('Until').fill(yesterday);
    await page.getByText('No records match.').waitFor();
    expect(await logins.count()).toBe(0);
    await page.close();
  });
});
