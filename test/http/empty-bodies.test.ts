import { describe, expect, it } from 'vitest';
import { ADMIN, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { postDocument } from '../helpers/post-document.js';
import { useContentApp } from '../helpers/use-content-app.js';

/**
 * Clients that always send `content-type: application/json` (docs/api.md, "Errors"): an empty body
 * is no body, and routes whose body means nothing (DELETE) decide on the caller, not on the body.
 */

let t: TestApp;
let admin: string;

useContentApp((app, token) => ((t = app), (admin = token)));

const JSON_HEADER = { 'content-type': 'application/json' };

const createPost = async (title: string) => (await postDocument(t, admin, 'post', { title }))._id as string;

describe('an empty body with a JSON content type is no body', () => {
  it('DELETE /documents/post/:id succeeds', async () => {
    const id = await createPost('delete with an empty json body');
    const res = await t.request({ method: 'DELETE', url: `/api/documents/post/${id}`, token: admin, headers: JSON_HEADER, payload: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await t.request({ method: 'GET', url: `/api/documents/post/${id}`, token: admin })).statusCode).toBe(404);
  });

  it('POST /auth/validate validates the bearer', async () => {
    const res = await t.request({ method: 'POST', url: '/api/auth/validate', token: admin, headers: JSON_HEADER, payload: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ valid: true, kind: 'user', user: { username: ADMIN.username } });
  });

  it('POST /auth/logout signs out', async () => {
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
    });
    const { token, refreshToken } = login.json().data as { token: string; refreshToken: string };
    const res = await t.request({ method: 'POST', url: '/api/auth/logout', token, headers: JSON_HEADER, payload: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    const refresh = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken } });
    expectSpecError(refresh, 401, 'UNAUTHORIZED');
  });

  it('a route that needs a body answers its usual validation error', async () => {
    const res = await t.request({ method: 'POST', url: '/api/users', token: admin, headers: JSON_HEADER, payload: '' });
    expectSpecError(res, 422, 'VALIDATION_ERROR');
  });
});

describe('the body of a DELETE is not read: the caller is decided first', () => {
  const MALFORMED = '{"not": json';

  it('anonymous DELETE with a malformed JSON body → 401', async () => {
    const id = await createPost('anonymous delete');
    for (const url of [
      `/api/documents/post/${id}`,
      `/api/collections/post/${id}`,
      '/api/media/nosuch',
      '/api/users/nosuch',
      '/api/tokens/nosuch',
    ]) {
      const res = await t.request({ method: 'DELETE', url, headers: JSON_HEADER, payload: MALFORMED });
      expectSpecError(res, 401, 'UNAUTHORIZED');
    }
  });

  it('a viewer deleting with a malformed JSON body → 403', async () => {
    const id = await createPost('viewer delete');
    const viewer = await t.userToken('viewer');
    for (const url of [`/api/documents/post/${id}`, '/api/media/nosuch', '/api/users/nosuch']) {
      const res = await t.request({ method: 'DELETE', url, token: viewer, headers: JSON_HEADER, payload: MALFORMED });
      expectSpecError(res, 403, 'FORBIDDEN');
    }
  });

  it('an allowed DELETE ignores whatever body it carries', async () => {
    const id = await createPost('delete ignoring its body');
    const res = await t.request({
      method: 'DELETE',
      url: `/api/documents/post/${id}`,
      token: admin,
      headers: JSON_HEADER,
      payload: MALFORMED,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
  });
});
