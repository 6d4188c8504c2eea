import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The studio's form layout travels with `GET /config/schemas` (docs/api.md, "Schemas"): the
 * schema's `groups`, each field's `group`, `hidden` and `readOnly` as configured. They shape the
 * form only: a write setting a field the rules hide or make read-only is stored like any other.
 */
const RULE = { not: { field: 'kind', eq: 'video' } };
const SCHEMAS = [
  {
    name: 'clip',
    groups: [
      { name: 'main', title: 'Main' },
      { name: 'seo', title: 'SEO' },
    ],
    fields: [
      { name: 'title', type: 'string', required: true },
      { name: 'kind', type: 'select', options: ['text', 'video'] },
      { name: 'videoUrl', type: 'url', group: 'main', hidden: RULE },
      { name: 'canonical', type: 'string', group: 'seo', readOnly: true, description: 'Set by the site.' },
    ],
  },
  { name: 'plain', fields: [{ name: 'title', type: 'string' }] },
];

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ schemas: SCHEMAS });
  token = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(() => t?.close());

describe('GET /config/schemas: groups and conditions', () => {
  it('carries the groups and each field’s group, hidden and readOnly', async () => {
    const res = await t.request({ method: 'GET', url: '/api/config/schemas', token });
    expect(res.statusCode).toBe(200);
    const [clip, plain] = res.json().data;
    expect(clip.groups).toEqual([
      { name: 'main', title: 'Main' },
      { name: 'seo', title: 'SEO' },
    ]);
    expect(clip.fields[2]).toMatchObject({ name: 'videoUrl', group: 'main', hidden: RULE });
    expect(clip.fields[3]).toMatchObject({ name: 'canonical', group: 'seo', readOnly: true, description: 'Set by the site.' });
    expect(plain).not.toHaveProperty('groups');
  });

  it('stores a value in a field the rules hide or make read-only: they are not a permission', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/collections/clip',
      token,
      payload: { title: 'A', kind: 'text', videoUrl: 'https://example.com/v', canonical: 'https://example.com/a' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ videoUrl: 'https://example.com/v', canonical: 'https://example.com/a' });
  });
});
