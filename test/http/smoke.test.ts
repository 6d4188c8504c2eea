import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await startTestApp({ schemas: TEST_SCHEMAS });
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(() => t.close());

describe('smoke', () => {
  it('creates, lists, expands', async () => {
    const a = await t.request({ method: 'POST', url: '/api/documents/author', token: admin, payload: { name: 'Ada' } });
    expect(a.statusCode, a.body).toBe(201);
    const p = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title: 'Hello World', author: a.json().data._id, _status: 'published', price: 5, tags: ['x'] } });
    expect(p.statusCode, p.body).toBe(201);
    expect(p.json().data.slug).toEqual({ current: 'hello-world' });
    const l = await t.request({ method: 'GET', token: admin, url: '/api/documents/post?expand=author&filter[price][gte]=4&filter[tags]=x&search=hell&orderBy=title&order=asc' });
    expect(l.statusCode, l.body).toBe(200);
    expect(l.json().data[0].author.name).toBe('Ada');
    expect(l.json().meta).toEqual({ total: 1, limit: 20, offset: 0 });
  });
});
