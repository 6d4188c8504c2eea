import { expect } from 'vitest';
import type { TestApp } from './app.js';
import type { JsonObject } from './json-object.js';

/** Creates a document of `type` through the API (docs/api.md, "Documents"): 201 expected; returns the served document. */
export async function postDocument(t: TestApp, token: string, type: string, payload: Record<string, unknown>): Promise<JsonObject> {
  const res = await t.request({ method: 'POST', url: `/api/documents/${type}`, token, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as JsonObject;
}
