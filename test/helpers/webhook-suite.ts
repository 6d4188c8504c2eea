import type { WebhookDelivery } from '../../packages/client/src/index.js';
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestApp, useAdminApp, type TestApp } from './app.js';
import { queueDelivery } from './queue-delivery.js';
import { TEST_SCHEMAS } from './schemas.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/**
 * The frame of the delivery suites (test/http/webhook-delivery.test.ts, webhook-test-send.test.ts):
 * an app with the worker on and a fast schedule — two retries 100 ms apart, a 1 s attempt
 * deadline, hooks switched off after 3 failed attempts in a row — and a real receiver on
 * loopback. Each hook gets a receiver path of its own, so a test reads only its own requests.
 */
export interface WebhookSuite {
  t: TestApp;
  admin: string;
  receiver: WebhookReceiver;
  /** A hook on a fresh receiver path. */
  hook(events?: string[]): Promise<{ id: string; secret: string; path: string }>;
  deliveries(hookId: string): Promise<WebhookDelivery[]>;
  delivery(hookId: string, id: string): Promise<WebhookDelivery>;
  /** Queues one event for the hook and wakes the worker, as the outbox does. */
  queue(hookId: string): ReturnType<typeof queueDelivery>;
  statusOf(hookId: string, id: string): () => Promise<string>;
  /** What a path answers in turn (302: a redirect to `<path>-target`; `hang`: no answer), then 204. */
  answerInTurn(path: string, statuses: Array<number | 'hang'>): void;
  /** Waits for one worker claim after now to have run: an event for a fresh hook is delivered. */
  afterAClaim(): Promise<void>;
}

export function useWebhookSuite(): WebhookSuite {
  const answers = new Map<string, Array<number | 'hang'>>();
  let paths = 0;
  const s = {
    async hook(events = ['document.*']) {
      const path = `/h${++paths}`;
      const res = await s.t.request({
        method: 'POST',
        url: '/api/webhooks',
        token: s.admin,
        payload: { name: `Hook ${path}`, url: s.receiver.url(path), events },
      });
      expect(res.statusCode, res.body).toBe(201);
      const { secret, webhook } = res.json().data as { secret: string; webhook: { id: string } };
      return { id: webhook.id, secret, path };
    },
    async deliveries(hookId: string) {
      const res = await s.t.request({ method: 'GET', url: `/api/webhooks/${hookId}/deliveries`, token: s.admin });
      expect(res.statusCode).toBe(200);
      return res.json().data as WebhookDelivery[];
    },
    async delivery(hookId: string, id: string) {
      const found = (await s.deliveries(hookId)).find((d) => d.id === id);
      if (!found) throw new Error(`delivery ${id} not listed`);
      return found;
    },
    async queue(hookId: string) {
      const row = await queueDelivery(s.t.app.services.database, hookId);
      s.t.app.services.deliveryQueue.wake();
      return row;
    },
    statusOf: (hookId: string, id: string) => async () => (await s.delivery(hookId, id)).status,
    answerInTurn: (path: string, statuses: Array<number | 'hang'>) => void answers.set(path, statuses),
    async afterAClaim() {
      const control = await s.hook();
      const row = await s.queue(control.id);
      await expect.poll(s.statusOf(control.id, row.id)).toBe('succeeded');
    },
  } as WebhookSuite;
  beforeAll(async () => {
    s.receiver = await startWebhookReceiver();
    s.receiver.answer((req, nth) => {
      const turn = answers.get(req.path)?.[nth];
      if (turn === 'hang') return 'hang';
      if (turn === 302) return { status: 302, location: s.receiver.url(`${req.path}-target`) };
      return { status: turn ?? 204 };
    });
  });
  useAdminApp(
    () =>
      startTestApp({
        schemas: TEST_SCHEMAS,
        webhooks: { worker: true, allowPrivateNetworks: true, timeout: '1s', retrySchedule: ['100ms', '100ms'], disableAfterFailures: 3 },
      }),
    (app, token) => {
      s.t = app;
      s.admin = token;
    },
  );
  afterAll(() => s.receiver?.close());
  return s;
}
