import { expect } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from './app.js';
import { EXAMPLE_LOCALES } from './example-locales.js';
import type { JsonObject } from './json-object.js';

/**
 * The localization suites' app (docs/localization.md): docs/localization.md's example locales and
 * a content model with localized fields of each kind (text, integer, list, object, slug, unique,
 * reference) beside shared ones.
 */
export const LOCALIZED_SCHEMAS = [
  {
    name: 'author',
    title: 'Author',
    fields: [
      { name: 'name', type: 'string', required: true },
      { name: 'bio', type: 'text', localized: true },
      { name: 'mentor', type: 'reference', to: 'author', localized: true },
    ],
  },
  {
    name: 'post',
    title: 'Post',
    fields: [
      { name: 'title', type: 'string', required: true, localized: true },
      { name: 'slug', type: 'slug', source: 'title', localized: true },
      { name: 'handle', type: 'string', unique: true, localized: true },
    ],
  },
  {
    name: 'page',
    title: 'Page',
    fields: [
      { name: 'title', type: 'string', required: true, localized: true, indexed: true },
      { name: 'rank', type: 'integer', localized: true },
      { name: 'tags', type: 'array', of: { type: 'string' }, localized: true },
      { name: 'seo', type: 'object', localized: true, fields: [{ name: 'description', type: 'string' }] },
      { name: 'code', type: 'string' },
      { name: 'author', type: 'reference', to: 'author' },
    ],
  },
];

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

/** A fresh app with those locales and schemas for the file, and its admin's document requests. */
export function useLocalizedApp() {
  const app = {} as { t: TestApp; admin: string };
  useAdminApp(
    () => startTestApp({ locales: EXAMPLE_LOCALES, schemas: LOCALIZED_SCHEMAS }),
    (t, token) => ((app.t = t), (app.admin = token)),
  );
  /** `/api/documents/<url>` as the admin. */
  const call = (method: Method, url: string, payload?: Record<string, unknown>) =>
    app.t.request({ method, url: `/api/documents/${url}`, token: app.admin, ...(payload ? { payload } : {}) });
  /** The same, expecting 201 for POST and 200 otherwise: the document served. */
  const ok = async (method: Method, url: string, payload?: Record<string, unknown>): Promise<JsonObject> => {
    const res = await call(method, url, payload);
    expect(res.statusCode, res.body).toBe(method === 'POST' ? 201 : 200);
    return res.json().data;
  };
  return { app, call, ok };
}
