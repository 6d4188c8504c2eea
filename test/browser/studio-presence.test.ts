import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.js';
import { expectAccessible, screenshot, signIn } from '../helpers/browser.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { startTwoBrowserNodes, type BrowserNode, type TwoBrowserNodes } from '../helpers/two-browser-nodes.js';

// Presence (docs/studio.md, "Presence"; docs/realtime.md, "Presence"): two people, each in a
// browser context of their own and signed in on a node of their own, the nodes sharing PostgreSQL
// and the change bus. Each sees the other's avatar, the field the other is on, a soft word when both
// edit, and the avatar gone once the other leaves.
let site: TwoBrowserNodes;
let ada: BrowserNode;
let grace: BrowserNode;
let admin: string;
const PASSWORD = 'user-password-1';

beforeAll(async () => {
  site = await startTwoBrowserNodes({ schemas: TEST_SCHEMAS });
  [ada, grace] = site.nodes;
  admin = await ada.login(ADMIN.username, ADMIN.password);
  for (const [username, firstName, lastName] of [
    ['ada', 'Ada', 'Lovelace'],
    ['grace', 'Grace', 'Hopper'],
  ]) {
    const res = await ada.request({
      method: 'POST',
      url: '/api/users',
      token: admin,
      payload: { username, email: `${username}@example.com`, password: PASSWORD, role: 'editor', firstName, lastName },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(() => site?.close());

async function openAs(node: BrowserNode, username: string, path: string, width: number): Promise<Page> {
  const page = await node.newPage();
  await page.setViewportSize({ width, height: 900 });
  await signIn(page, node.origin, username, PASSWORD, path);
  await page.getByLabel('Name *').waitFor();
  return page;
}

const avatars = (page: Page) => page.getByRole('list', { name: 'Also viewing this document' });

// Two nodes, two browsers and axe seven times per width: slow on a loaded machine.
describe.each([1440, 390])('presence at %i px', (width) => {
  it('shows who else is there, the field they are on, a soft word when both edit, and who left', async () => {
    const made = await ada.request({ method: 'POST', url: '/api/documents/author', token: admin, payload: { name: `Shared ${width}` } });
    expect(made.statusCode, made.body).toBe(201);
    const path = `/studio/documents/author/${made.json().data._id as string}`;

    const pageA = await openAs(ada, 'ada', path, width);
    const pageB = await openAs(grace, 'grace', path, width);
    // Each sees the other (across nodes), not themselves.
    await avatars(pageA).getByText('Grace Hopper').waitFor();
    await avatars(pageB).getByText('Ada Lovelace').waitFor();
    expect(await avatars(pageA).getByRole('listitem').count()).toBe(1);
    expect(await avatars(pageA).getByRole('listitem').getAttribute('title')).toBe('Grace Hopper');
    expect(await avatars(pageA).getByRole('listitem').locator('[aria-hidden="true"]').innerText()).toBe('GH');
    await expectAccessible(pageA, `avatars (${width})`);
    await expectAccessible(pageB, `avatars, other side (${width})`);

    // Grace focuses the bio: Ada sees the field marked with her name.
    await pageB.getByLabel('Bio').focus();
    const marked = pageA.getByText('Grace Hopper is on this field');
    await marked.waitFor();
    expect(await pageA.locator('.field-watched').getAttribute('data-field')).toBe('bio');
    await expectAccessible(pageA, `field marked (${width})`);
    await screenshot(pageA, `presence-field-${width}`);

    // Grace types; Ada starts to edit too and is told, softly.
    await pageB.getByLabel('Bio').fill('Grace writes here');
    await avatars(pageA).getByText('Grace Hopper (editing)').waitFor();
    await pageA.getByLabel('Email').focus();
    await pageA.getByLabel('Email').fill('ada@example.com');
    const warning = pageA.getByRole('status').filter({ hasText: 'Grace Hopper is editing this document too.' });
    await warning.waitFor();
    // Not blocking: typing goes on.
    await pageA.getByLabel('Email').fill('ada@example.org');
    expect(await pageA.getByLabel('Email').inputValue()).toBe('ada@example.org');
    await expectAccessible(pageA, `editing too (${width})`);
    await screenshot(pageA, `presence-editing-too-${width}`);
    // Grace sees Ada's mark and Ada editing; she is told as well, having typed first.
    await pageB.getByText('Ada Lovelace is on this field').waitFor();
    await pageB.getByRole('status').filter({ hasText: 'Ada Lovelace is editing this document too.' }).waitFor();
    await expectAccessible(pageB, `editing too, other side (${width})`);
    await warning.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => warning.count()).toBe(0);

    // Grace saves and leaves the page: her avatar and mark are gone from Ada's.
    await pageB.keyboard.press('Control+s');
    await pageB.getByRole('button', { name: 'Save', exact: true }).waitFor();
    await expect.poll(() => pageB.getByText('Unsaved changes').count()).toBe(0);
    await pageB.goto(`${grace.origin}/studio/documents/author`);
    await expect.poll(() => avatars(pageA).count()).toBe(0);
    expect(await marked.count()).toBe(0);
    await expectAccessible(pageA, `alone again (${width})`);
    await pageA.close();
    await pageB.close();
  }, 240_000);
});
