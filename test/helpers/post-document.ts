import { expect } from 'vitest';
import type { TestApp } from './app.js';

/** Creates a document of `type` through the API (docs/api.md, "Documents"): 201 expected; returns the served document. */
export async function postDocument(
  t: TestApp,
  token: string,
  type: string,
  payload: Record<string, unknown>,
): Promise<Record<string, any>> {
  const res = await t.request({ method: 'POST', url: `/api/documents/${type}`, token, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as Record<string, any>;
}
