import { describe, expect, it } from 'vitest';
import { AUDIT_EVENTS } from '../../packages/server/src/config/audit-events.js';
import { CONTENT_ACTIONS, FIXED_PERMISSIONS } from '../../packages/server/src/domain/access/permissions.js';
import { isEventPattern, WEBHOOK_EVENTS } from '../../packages/server/src/domain/webhooks/webhook-events.js';
import { startTestApp, useAdminApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

let t: TestApp;
let admin: string;

useAdminApp(
  () => startTestApp({ schemas: TEST_SCHEMAS }),
  (app, token) => {
    t = app;
    admin = token;
  },
);

/**
 * The studio draws its permission picker and audit filter from `GET /config/studio` (docs/api.md,
 * "Instance settings and studio configuration"): the lists must be the server's own, in its order.
 */
describe('GET /config/studio lists', () => {
  it('lists exactly the fixed permissions, the content actions and the audit events, in order', async () => {
    const res = await t.request({ method: 'GET', url: '/api/config/studio', token: admin });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.permissions).toEqual([...FIXED_PERMISSIONS]);
    expect(data.schemaActions).toEqual([...CONTENT_ACTIONS]);
    expect(data.auditEvents).toEqual([...AUDIT_EVENTS]);
  });

  it('lists the webhook events, in order, each one a webhook may subscribe to', async () => {
    const res = await t.request({ method: 'GET', url: '/api/config/studio', token: await t.userToken('api', ['studio:access']) });
    expect(res.statusCode).toBe(200);
    const events: string[] = res.json().data.webhookEvents;
    expect(events).toEqual([...WEBHOOK_EVENTS]);
    expect(events.every(isEventPattern)).toBe(true);
    // The studio's event picker builds `<resource>.*` from the part before the dot.
    expect(new Set(events.map((e) => e.split('.')[0]))).toEqual(new Set(['document', 'media', 'user']));
  });

  it('a user with only studio:access sees the same lists', async () => {
    const res = await t.request({ method: 'GET', url: '/api/config/studio', token: await t.userToken('api', ['studio:access']) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.permissions).toEqual([...FIXED_PERMISSIONS]);
    expect(res.json().data.auditEvents).toEqual([...AUDIT_EVENTS]);
  });

  it('is refused without studio:access: 401 anonymous, 403 for a user or token without it', async () => {
    const anonymous = await t.request({ method: 'GET', url: '/api/config/studio' });
    expect(anonymous.statusCode).toBe(401);
    const user = await t.request({ method: 'GET', url: '/api/config/studio', token: await t.userToken('api', ['content:read']) });
    expect(user.statusCode).toBe(403);
    expect(user.json().data).toBeUndefined();
    const created = await t.request({
      method: 'POST',
      url: '/api/tokens',
      token: admin,
      payload: { name: 'no studio', permissions: ['content:read'] },
    });
    expect(created.statusCode).toBe(201);
    const apiToken = await t.request({ method: 'GET', url: '/api/config/studio', token: created.json().data.token });
    expect(apiToken.statusCode).toBe(403);
  });
});
