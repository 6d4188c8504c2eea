import { expect } from 'vitest';
import type { BrowserApp } from './browser.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The API as a browser suite calls it beside the page (to set up and to check what the page did):
 * `/api` + `url` in-process, as `token` (the suite's admin unless given). The app and the token
 * are read when called, since a suite gets them only once its app has started.
 */
export function browserApi(app: () => BrowserApp, defaultToken: () => string) {
  const request = (method: string, url: string, payload?: unknown, token = defaultToken()) =>
    app().t.request({ method: method as Method, url: `/api${url}`, token, payload: payload as object });
  return {
    /** The answer's `data`; anything but a 2xx fails the test where it was asked. */
    async data(method: string, url: string, payload?: unknown, token?: string) {
      const res = await request(method, url, payload, token);
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json().data;
    },
    /** The status and the parsed body, for a suite that checks refusals too. */
    async response(method: string, url: string, payload?: unknown, token?: string) {
      const res = await request(method, url, payload, token);
      return { status: res.statusCode, body: res.body ? res.json() : undefined };
    },
  };
}
