import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { useMailCatcher } from '../helpers/mail-catcher.js';

/**
 * Who may call the account and configuration endpoints (spec: Users; issue 3). Each caller is a
 * role, or the `api` role holding exactly one permission. Expected: 401 anonymous, 403 denied,
 * otherwise the endpoint's success status.
 */
type Caller = { name: string; role?: string; permissions?: string[] };
const CALLERS: Caller[] = [
  { name: 'anonymous' },
  { name: 'admin', role: 'admin' },
  { name: 'editor', role: 'editor' },
  { name: 'author', role: 'author' },
  { name: 'writer', role: 'writer' },
  { name: 'viewer', role: 'viewer' },
  { name: 'api', role: 'api' },
  ...['users:read', 'users:write', 'users:invite', 'settings:read', 'settings:write', 'studio:access'].map((p) => ({
    name: `api+${p}`,
    role: 'api',
    permissions: [p],
  })),
];

interface Endpoint {
  name: string;
  ok: number;
  /** Callers (by name) allowed besides admin. */
  allowed: string[];
  call: (t: TestApp, token: string | undefined, ctx: { target: string; targetName: string; n: number }) => Promise<{ statusCode: number }>;
}

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /users', ok: 200, allowed: ['api+users:read'], call: (t, token) => t.request({ method: 'GET', url: '/api/users', token }) },
  {
    name: 'GET /users/:id',
    ok: 200,
    allowed: ['api+users:read'],
    call: (t, token, c) => t.request({ method: 'GET', url: `/api/users/${c.target}`, token }),
  },
  {
    name: 'GET /users/by-username/:u',
    ok: 200,
    allowed: ['api+users:write'],
    call: (t, token, c) => t.request({ method: 'GET', url: `/api/users/by-username/${c.targetName}`, token }),
  },
  {
    name: 'GET /users/by-email/:e',
    ok: 200,
    allowed: ['api+users:write'],
    call: (t, token, c) => t.request({ method: 'GET', url: `/api/users/by-email/${c.targetName}@example.com`, token }),
  },
  {
    name: 'POST /users',
    ok: 201,
    allowed: ['api+users:write'],
    call: (t, token, c) =>
      t.request({
        method: 'POST',
        url: '/api/users',
        token,
        payload: { username: `new${c.n}`, email: `new${c.n}@example.com`, password: 'new-password-1' },
      }),
  },
  {
    name: 'POST /users/invite',
    ok: 201,
    allowed: ['api+users:write', 'api+users:invite'],
    call: (t, token, c) =>
      t.request({ method: 'POST', url: '/api/users/invite', token, payload: { username: `inv${c.n}`, email: `inv${c.n}@example.com` } }),
  },
  {
    name: 'PUT /users/:id',
    ok: 200,
    allowed: ['api+users:write'],
    call: (t, token, c) => t.request({ method: 'PUT', url: `/api/users/${c.target}`, token, payload: { firstName: `F${c.n}` } }),
  },
  {
    name: 'POST /users/:id/password-reset',
    ok: 200,
    allowed: ['api+users:write'],
    call: (t, token, c) => t.request({ method: 'POST', url: `/api/users/${c.target}/password-reset`, token }),
  },
  {
    name: 'DELETE /users/:id',
    ok: 200,
    allowed: ['api+users:write'],
    call: (t, token, c) => t.request({ method: 'DELETE', url: `/api/users/${c.target}`, token }),
  },
  {
    name: 'GET /config/settings',
    ok: 200,
    allowed: ['api+settings:read'],
    call: (t, token) => t.request({ method: 'GET', url: '/api/config/settings', token }),
  },
  {
    // docs/operations.md, "Metrics": without the scrape token, who may read the settings may read the numbers.
    name: 'GET /metrics',
    ok: 200,
    allowed: ['api+settings:read'],
    call: (t, token) => t.request({ method: 'GET', url: '/api/metrics', token }),
  },
  {
    name: 'PUT /config/settings',
    ok: 200,
    allowed: ['api+settings:write'],
    call: (t, token, c) => t.request({ method: 'PUT', url: '/api/config/settings', token, payload: { siteName: `Site ${c.n}` } }),
  },
  {
    name: 'GET /config/studio',
    ok: 200,
    allowed: ['editor', 'author', 'writer', 'viewer', 'api+studio:access'],
    call: (t, token) => t.request({ method: 'GET', url: '/api/config/studio', token }),
  },
  {
    name: 'GET /config/structure',
    ok: 200,
    allowed: ['editor', 'author', 'writer', 'viewer', 'api+studio:access'],
    call: (t, token) => t.request({ method: 'GET', url: '/api/config/structure', token }),
  },
  {
    name: 'GET /auth/mfa/status',
    ok: 200,
    allowed: CALLERS.filter((c) => c.name !== 'anonymous').map((c) => c.name),
    call: (t, token) => t.request({ method: 'GET', url: '/api/auth/mfa/status', token }),
  },
  {
    name: 'GET /auth/mfa/trusted-devices',
    ok: 200,
    allowed: CALLERS.filter((c) => c.name !== 'anonymous').map((c) => c.name),
    call: (t, token) => t.request({ method: 'GET', url: '/api/auth/mfa/trusted-devices', token }),
  },
  // The admin role itself: no permission grants an MFA reset.
  {
    name: 'POST /admin/users/:id/mfa/reset',
    ok: 200,
    allowed: [],
    call: (t, token, c) => t.request({ method: 'POST', url: `/api/admin/users/${c.target}/mfa/reset`, token }),
  },
  { name: 'GET /audit', ok: 200, allowed: [], call: (t, token) => t.request({ method: 'GET', url: '/api/audit', token }) },
  {
    name: 'GET /config/schemas',
    ok: 200,
    allowed: CALLERS.map((c) => c.name),
    call: (t, token) => t.request({ method: 'GET', url: '/api/config/schemas', token }),
  },
];

let t: TestApp;
let admin: string;
const mail = useMailCatcher();
const tokens = new Map<string, string | undefined>();
let n = 0;

beforeAll(async () => {
  t = await startTestApp({ mail: { smtpUrl: mail.url } });
  admin = await t.login(ADMIN.username, ADMIN.password);
  for (const c of CALLERS)
    tokens.set(c.name, c.role === 'admin' ? admin : c.role ? await t.userToken(c.role, c.permissions ?? []) : undefined);
});
afterAll(() => t.close());

describe('accounts and configuration access matrix', () => {
  for (const e of ENDPOINTS) {
    for (const c of CALLERS) {
      const expected =
        c.name === 'anonymous' && e.name !== 'GET /config/schemas' ? 401 : c.name === 'admin' || e.allowed.includes(c.name) ? e.ok : 403;
      it(`${c.name} ${e.name} → ${expected}`, async () => {
        // Each cell gets its own target user, so deletes and updates do not interfere.
        const targetName = `target${++n}`;
        const created = await t.request({
          method: 'POST',
          url: '/api/users',
          token: admin,
          payload: { username: targetName, email: `${targetName}@example.com`, password: 'target-password-1' },
        });
        const res = await e.call(t, tokens.get(c.name), { target: created.json().data.id, targetName, n });
        expect(res.statusCode).toBe(expected);
      });
    }
  }
});
