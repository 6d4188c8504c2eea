import { join } from 'node:path';
import { it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { signIn } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { openStudioPage, seedStudioPages, STUDIO_PAGES, type SeededPages } from '../helpers/studio-pages.js';
import { useBrowserApp } from '../helpers/use-browser-app.js';
import type { BrowserApp } from '../helpers/browser.js';

/**
 * The screenshots of docs/studio.md ("Design system"): each main page at 1440 px and 390 px wide,
 * in the light and dark schemes, the viewport only, into
 * docs/images/studio/<prefix>-<page>-<width>[-dark].png. Not a test: it has a configuration of
 * its own, so no suite run writes into docs/. After `npm run build`:
 * `SHOTS=after npx vitest run --config test/screenshots/vitest.config.ts`.
 */
const prefix = process.env.SHOTS ?? 'after';
const OUT = join(import.meta.dirname, '../../docs/images/studio');
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

let b: BrowserApp;
let seeded: SeededPages;
useBrowserApp({ schemas: TEST_SCHEMAS }, (app) => (b = app));

it('takes the screenshots of the main pages', { timeout: 300_000 }, async () => {
  seeded = await seedStudioPages(b, await b.t.login(ADMIN.username, ADMIN.password));
  const page = await b.newPage();
  await signIn(page, b.origin, ADMIN.username, ADMIN.password);
  await page.getByRole('navigation', { name: 'Studio' }).waitFor();
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const name of STUDIO_PAGES) {
      for (const size of SIZES) {
        // Sign-in is seen signed out: a tab of its own (sessionStorage holds the session).
        const tab = name === 'sign-in' ? await b.newPage() : page;
        await tab.emulateMedia({ colorScheme });
        await tab.setViewportSize(size);
        await openStudioPage(tab, b.origin, seeded.paths[name]);
        const suffix = colorScheme === 'dark' ? '-dark' : '';
        await tab.screenshot({ path: join(OUT, `${prefix}-${name}-${size.width}${suffix}.png`) });
        if (tab !== page) await tab.close();
      }
    }
  }
});
