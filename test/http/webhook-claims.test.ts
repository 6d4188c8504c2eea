import { describe, expect, it } from 'vitest';
import { useWebhookSuite } from '../helpers/webhook-suite.js';

// Claims skip switched-off hooks without letting them block the queue (docs/webhooks.md,
// "Delivery"): a switched-off hook's deliveries, even the oldest due ones, wait; everything
// behind them is still delivered; switched on again, they go out.
const s = useWebhookSuite();

async function setActive(hookId: string, active: boolean) {
  const current = (await s.t.request({ method: 'GET', url: `/api/webhooks/${hookId}`, token: s.admin })).json().data;
  const res = await s.t.request({
    method: 'PUT',
    url: `/api/webhooks/${hookId}`,
    token: s.admin,
    payload: { name: current.name, url: current.url, events: current.events, types: current.types, active },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('claims and switched-off hooks', () => {
  it('more than a claim of the oldest due rows belong to a switched-off hook: the rows behind them are delivered', async () => {
    const off = await s.hook();
    const on = await s.hook();
    await setActive(off.id, false);
    // 40 rows of the switched-off hook first (more than one claim of 16), then 3 of the active one.
    const waiting = [];
    for (let i = 0; i < 40; i++) waiting.push(await s.queue(off.id));
    const sent = [await s.queue(on.id), await s.queue(on.id), await s.queue(on.id)];
    for (const row of sent) await expect.poll(s.statusOf(on.id, row.id), { timeout: 10_000 }).toBe('succeeded');
    expect(s.receiver.to(off.path)).toHaveLength(0);
    expect(new Set((await s.deliveries(off.id)).map((d) => d.status))).toEqual(new Set(['pending']));

    await setActive(off.id, true);
    await expect.poll(() => s.receiver.to(off.path).length, { timeout: 10_000 }).toBe(waiting.length);
  });
});
