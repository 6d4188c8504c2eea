import { beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../packages/server/src/domain/shared/ids.js';
import { insertDelivery } from '../../packages/server/src/storage/webhooks/webhook-deliveries-store.js';
import type { TestApp } from '../helpers/app.js';
import { useContentApp } from '../helpers/use-content-app.js';

/**
 * Who may call the webhook endpoints (docs/api.md, "Webhooks"): read needs webhooks:read;
 * create, replace, rotate and retry need webhooks:write; delete needs webhooks:delete; a test
 * send needs webhooks:test; admin has all. Callers are roles, or API tokens holding exactly one
 * webhooks permission. Expected: 401 anonymous, 403 denied, otherwise the endpoint's success status.
 */
type Caller = { name: string; role?: string; tokenPermission?: string };
const CALLERS: Caller[] = [
  { name: 'anonymous' },
  { name: 'admin', role: 'admin' },
  { name: 'editor', role: 'editor' },
  { name: 'writer', role: 'writer' },
  { name: 'viewer', role: 'viewer' },
  ...['webhooks:read', 'webhooks:write', 'webhooks:delete', 'webhooks:test'].map((p) => ({ name: `token+${p}`, tokenPermission: p })),
];

interface Cell {
  hook: string;
  delivery: string;
}
interface Endpoint {
  name: string;
  ok: number;
  /** Callers (by name) allowed besides admin. */
  allowed: string[];
  call: (token: string | undefined, c: Cell) => Promise<{ statusCode: number; body: string }>;
}

const BODY = { name: 'Matrix hook', url: 'https://hooks.example.com/m', events: ['document.*'] };
const READ = ['token+webhooks:read'];
const WRITE = ['token+webhooks:write'];

let t: TestApp;
let admin: string;
useContentApp((app, token) => {
  t = app;
  admin = token;
});

const ENDPOINTS: Endpoint[] = [
  { name: 'GET /webhooks', ok: 200, allowed: READ, call: (token) => t.request({ method: 'GET', url: '/api/webhooks', token }) },
  {
    name: 'POST /webhooks',
    ok: 201,
    allowed: WRITE,
    call: (token) => t.request({ method: 'POST', url: '/api/webhooks', token, payload: BODY }),
  },
  {
    name: 'GET /webhooks/:id',
    ok: 200,
    allowed: READ,
    call: (token, c) => t.request({ method: 'GET', url: `/api/webhooks/${c.hook}`, token }),
  },
  {
    name: 'PUT /webhooks/:id',
    ok: 200,
    allowed: WRITE,
    call: (token, c) => t.request({ method: 'PUT', url: `/api/webhooks/${c.hook}`, token, payload: { ...BODY, name: 'Renamed' } }),
  },
  {
    name: 'DELETE /webhooks/:id',
    ok: 200,
    allowed: ['token+webhooks:delete'],
    call: (token, c) => t.request({ method: 'DELETE', url: `/api/webhooks/${c.hook}`, token }),
  },
  {
    name: 'POST /webhooks/:id/rotate-secret',
    ok: 200,
    allowed: WRITE,
    call: (token, c) => t.request({ method: 'POST', url: `/api/webhooks/${c.hook}/rotate-secret`, token }),
  },
  {
    name: 'GET /webhooks/:id/deliveries',
    ok: 200,
    allowed: READ,
    call: (token, c) => t.request({ method: 'GET', url: `/api/webhooks/${c.hook}/deliveries`, token }),
  },
  {
    name: 'POST /webhooks/:id/deliveries/:deliveryId/retry',
    ok: 200,
    allowed: WRITE,
    call: (token, c) => t.request({ method: 'POST', url: `/api/webhooks/${c.hook}/deliveries/${c.delivery}/retry`, token }),
  },
  {
    // Sends at once; hooks.example.com does not resolve, so it is recorded dead, and still answered 200.
    name: 'POST /webhooks/:id/test',
    ok: 200,
    allowed: ['token+webhooks:test'],
    call: (token, c) => t.request({ method: 'POST', url: `/api/webhooks/${c.hook}/test`, token }),
  },
];

const tokens = new Map<string, string | undefined>();

beforeAll(async () => {
  for (const c of CALLERS) {
    if (c.role === 'admin') tokens.set(c.name, admin);
    else if (c.role) tokens.set(c.name, await t.userToken(c.role));
    else if (c.tokenPermission) {
      const res = await t.request({
        method: 'POST',
        url: '/api/tokens',
        token: admin,
        payload: { name: c.name, permissions: [c.tokenPermission] },
      });
      expect(res.statusCode, res.body).toBe(201);
      tokens.set(c.name, res.json().data.token);
    } else tokens.set(c.name, undefined);
  }
});

/** Each cell gets its own webhook with one failed delivery, so deletes and retries do not interfere. */
async function freshCell(): Promise<Cell> {
  const res = await t.request({ method: 'POST', url: '/api/webhooks', token: admin, payload: BODY });
  const hook = res.json().data.webhook.id as string;
  const delivery = uuidv7();
  const at = new Date().toISOString();
  await insertDelivery(t.app.services.database, {
    id: delivery,
    webhookId: hook,
    eventId: `evt_${delivery}`,
    eventType: 'document.created',
    payload: '{}',
    status: 'failed',
    attempts: 1,
    nextAttemptAt: null,
    claimedUntil: null,
    lastStatusCode: 503,
    lastDurationMs: 5,
    lastError: 'HTTP 503',
    createdAt: at,
    deliveredAt: null,
  });
  return { hook, delivery };
}

describe('webhooks access matrix', () => {
  for (const e of ENDPOINTS) {
    for (const c of CALLERS) {
      const expected = c.name === 'anonymous' ? 401 : c.name === 'admin' || e.allowed.includes(c.name) ? e.ok : 403;
      it(`${c.name} ${e.name} → ${expected}`, async () => {
        const res = await e.call(tokens.get(c.name), await freshCell());
        expect(res.statusCode, res.body).toBe(expected);
      });
    }
  }
});
