import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { VellumClient, type Media } from '../../packages/client/src/index.js';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn, type BrowserApp } from '../helpers/browser.js';
import { createUser } from '../helpers/create-user.js';
import { png } from '../helpers/media-fixtures.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { MANY_SIGN_INS, useBrowserApp } from '../helpers/use-browser-app.js';

// The media panel's focal-point picker (docs/studio.md, "Pages"; docs/media.md, "Focal point"): a
// click on the preview sets the point where it lands, the arrow keys move it, "Clear focal point"
// sends null, and a user without media:edit sees the point but no picker.
let b: BrowserApp;
let admin: string;
let api: VellumClient;
let image: Media;
const PASSWORD = 'browser-password-1';

useBrowserApp({ schemas: TEST_SCHEMAS, ...MANY_SIGN_INS }, (app, token) => ((b = app), (admin = token)));
beforeAll(async () => {
  api = new VellumClient({ baseUrl: `${b.origin}/api`, token: admin });
  // Wider than tall, so the frame is not square: x and y are measured against different lengths.
  image = await api.uploadMedia(new Blob([await png(900, 500, { r: 220, g: 180, b: 40 })], { type: 'image/png' }), {
    filename: 'landscape.png',
  });
  await createUser(b.t, admin, { username: 'victor', password: PASSWORD, role: 'viewer', permissions: [] });
});

async function openPanel(username: string, password: string): Promise<Page> {
  const page = await b.newPage();
  await signIn(page, b.origin, username, password, '/studio/media');
  await page
    .getByRole('list', { name: 'Media items' })
    .getByRole('button', { name: /^landscape\.png/ })
    .click();
  await page.getByRole('dialog').getByRole('heading', { name: 'landscape.png' }).waitFor();
  return page;
}

const focalPoint = async () => (await api.getMedia(image._id)).focalPoint ?? null;

describe('studio focal point', () => {
  it('a click sets the point where it lands, the arrow keys move it, and Clear removes it', async () => {
    const page = await openPanel(ADMIN.username, ADMIN.password);
    const panel = page.getByRole('dialog');
    const picker = panel.getByRole('button', { name: /^Focal point: not set/ });
    await picker.waitFor();
    await panel.getByText('Click the image to set its focal point: crops keep it in view.').waitFor();
    expect(await panel.getByTestId('focal-point-marker').count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Clear focal point' }).count()).toBe(0);

    const box = (await picker.boundingBox())!;
    // The frame has the picture's shape (900 × 500), so a position in it is one in the picture.
    expect(box.width / box.height).toBeCloseTo(900 / 500, 1);
    // Chromium floors a click's page coordinates to whole pixels: aim at the middle of the pixel
    // nearest the point, so the click lands within half a pixel of it.
    const near = (start: number, length: number, f: number) => Math.round(start + length * f) + 0.5 - start;
    await picker.click({ position: { x: near(box.x, box.width, 0.25), y: near(box.y, box.height, 0.75) } });
    await panel.getByText('Focal point saved.').waitFor();
    const set = (await focalPoint())!;
    expect(set.x).toBeCloseTo(0.25, 2);
    expect(set.y).toBeCloseTo(0.75, 2);
    const marker = panel.getByTestId('focal-point-marker');
    await marker.waitFor({ state: 'visible' });
    // The marker's centre is on the point.
    const m = (await marker.boundingBox())!;
    expect(m.x + m.width / 2 - box.x).toBeCloseTo(box.width * 0.25, -1);
    expect(m.y + m.height / 2 - box.y).toBeCloseTo(box.height * 0.75, -1);
    const moved = panel.getByRole('button', { name: /^Focal point: 25 % from the left, 75 % from the top\./ });
    await moved.waitFor();
    await expectAccessible(page, 'media focal point');
    await page.setViewportSize({ width: 1280, height: 1100 });
    await screenshot(page, 'media-focal-point');

    // The arrow keys move it by 5 %, saved once they pause.
    await moved.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await focalPoint())?.x).toBeCloseTo(set.x + 0.05, 2);
    expect((await focalPoint())!.y).toBeCloseTo(set.y, 2);
    await panel.getByRole('button', { name: /^Focal point: 30 % from the left, 75 % from the top\./ }).waitFor();
    await panel.getByText('Focal point saved.').waitFor();
    // Enter clicks the button at no position (not the top left corner): the point stays.
    await page.keyboard.press('Enter');
    expect(await panel.getByRole('button', { name: /^Focal point: 30 % from the left, 75 % from the top\./ }).count()).toBe(1);

    await panel.getByRole('button', { name: 'Clear focal point' }).click();
    await expect.poll(focalPoint).toBeNull();
    await expect.poll(() => panel.getByTestId('focal-point-marker').count()).toBe(0);
    await panel.getByRole('button', { name: /^Focal point: not set/ }).waitFor();
    expect(await panel.getByRole('button', { name: 'Clear focal point' }).count()).toBe(0);
    await page.close();
  });

  it('a viewer sees the point on the picture but no picker', async () => {
    await api.updateMedia(image._id, { focalPoint: { x: 0.7, y: 0.3 } });
    const page = await openPanel('victor', PASSWORD);
    const panel = page.getByRole('dialog');
    await panel.getByText('You may not edit media.').waitFor();
    await panel.getByTestId('focal-point-marker').waitFor({ state: 'visible' });
    await panel.getByText('Focal point: 70 % from the left, 30 % from the top.').waitFor();
    expect(await panel.getByRole('button', { name: /^Focal point/ }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Clear focal point' }).count()).toBe(0);
    expect(await panel.getByText('Click the image to set its focal point', { exact: false }).count()).toBe(0);
    await page.close();
  });
});
