import type { Page } from 'playwright-core';
import type { BrowserApp } from './browser.js';
import { png } from './media-fixtures.js';
import { multipartUpload } from './multipart-upload.js';

/**
 * The studio's main pages with something on them (docs/studio.md, "Design system"): a few posts
 * (one with a long slug and rich text), an author, an image, a webhook and a second user. Shared
 * by the small-screen test and the screenshot script (test/studio-screenshots.ts), so both look
 * at the same pages.
 */
export interface SeededPages {
  /** The post with the long slug and rich text: the edit page's subject. */
  postId: string;
  /** Path below `/studio` of each main page, by a short name used in the screenshots' file names. */
  paths: Record<StudioPageName, string>;
}

export const STUDIO_PAGES = ['home', 'list', 'edit', 'media', 'users', 'webhooks', 'account', 'sign-in'] as const;
export type StudioPageName = (typeof STUDIO_PAGES)[number];

const LONG_SLUG = 'a-very-long-slug-that-keeps-going-without-a-single-space-to-break-it-across-lines-on-a-phone';

/** Seeds what the main pages show, through the API as `admin` (a token); throws on an unexpected answer. */
export async function seedStudioPages(b: BrowserApp, admin: string): Promise<SeededPages> {
  const call = async (method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>) => {
    const res = await b.t.request({ method, url, token: admin, payload });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json().data as { id?: string; _id?: string };
  };
  const author = await call('POST', '/api/documents/author', { name: 'Ada Lovelace', email: 'ada@example.com' });
  const post = await call('POST', '/api/documents/post', {
    title: 'Notes on the analytical engine, and why a title this long must wrap',
    slug: LONG_SLUG,
    content: '<h2>The engine</h2><p>It weaves <strong>algebraic patterns</strong> as the Jacquard loom weaves flowers and leaves.</p>',
    price: 12.5,
    category: 'guide',
    tags: ['history', 'computing'],
    author: author._id,
  });
  for (const title of ['Spring release notes', 'How we test the studio', 'Opinion: plain pages are fine']) {
    await call('POST', '/api/documents/post', { title, category: 'news' });
  }
  const upload = await b.t.request({
    method: 'POST',
    url: '/api/media',
    token: admin,
    ...(await multipartUpload(await png(640, 400, { r: 90, g: 160, b: 110 }), 'meadow.png')),
  });
  if (upload.statusCode >= 300) throw new Error(`media upload: ${upload.statusCode} ${upload.body}`);
  await call('POST', '/api/webhooks', { name: 'Rebuild site', url: 'https://example.com/hooks/rebuild', events: ['*'] });
  await call('POST', '/api/users', { username: 'grace', email: 'grace@example.com', password: 'grace-password-1', role: 'editor' });
  return {
    postId: post._id!,
    paths: {
      home: '/',
      list: '/documents/post',
      edit: `/documents/post/${post._id}`,
      media: '/media',
      users: '/admin/users',
      webhooks: '/admin/webhooks',
      account: '/account',
      'sign-in': '/sign-in',
    },
  };
}

/** Opens one of the main pages (signed in already, except for sign-in) and waits until its content is drawn. */
export async function openStudioPage(page: Page, origin: string, path: string): Promise<void> {
  await page.goto(`${origin}/studio${path}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  // No "networkidle": the live event stream (/events) stays open. The page's queries answer
  // within a moment on a local app; then the screenshots and measures see the page as drawn.
  // Polled through page.evaluate, which the page's Content-Security-Policy does not apply to
  // (waitForFunction's string would be an eval); a string, as this file has no DOM types.
  const loading = `!!document.querySelector('.loading') || document.body.innerText.includes('Loading…')`;
  for (let tries = 0; (await page.evaluate(loading)) && tries < 100; tries++) await page.waitForTimeout(100);
  await page.waitForTimeout(400);
}
