// The webhook scenarios of `npm run bench` (see benchWebhooks).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { announcedPort, cleanups, start, stop } from './lib.mjs';
import { api, postBody } from './setup.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What webhooks cost (docs/webhooks.md, "Delivery"): five active hooks take `document.created` of
 * posts, on a local receiver (a child process).
 * - `create_webhooks5`: the create scenario with them, on a node whose worker is off: what the
 *   outbox adds to a write (five delivery rows in its transaction), nothing else.
 * - `webhook_delivery`: a node with the worker then delivers that backlog; deliveries per second
 *   reaching the receiver over a fixed window (the backlog is larger than the window can drain).
 * - `create_webhooks5_delivering`: creates again while the worker delivers on the same node (two
 *   cores shared by autocannon, the server's writes and its deliveries): the whole cost.
 */
/** How long the delivery rate is measured for. */
const DELIVERY_WINDOW_MS = 15_000;

export async function benchWebhooks({ base, token, authorIds, run, results, restart, dialect }) {
  const receiver = start([join(ROOT, 'bench/webhook-receiver.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => stop(receiver));
  const port = await announcedPort(receiver, 'webhook receiver');
  const received = async () => (await (await fetch(`http://127.0.0.1:${port}/count`)).json()).received;
  const addHooks = async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) {
      const res = await api(base, 'POST', '/api/webhooks', token, {
        name: `bench ${i}`,
        url: `http://127.0.0.1:${port}/hook/${i}`,
        events: ['document.created'],
        types: ['post'],
      });
      if (res.status !== 201) throw new Error(`webhook: ${res.status} ${JSON.stringify(res.json)}`);
      ids.push(res.json.data.webhook.id);
    }
    return ids;
  };
  // Deleting the hooks deletes what they still had queued: the next step starts from nothing.
  const removeHooks = async (ids) => {
    for (const id of ids) await api(base, 'DELETE', `/api/webhooks/${id}`, token);
  };
  let n = 0;
  const creates = {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ ...postBody(n, authorIds), title: `Bench hooked ${n++}` }) }),
      },
    ],
  };

  // 1. The outbox alone: no worker on this node. One connection as well as the usual ten: with
  //    ten the server is saturated and latency is throughput (queueing); with one it is what a
  //    single write costs. autocannon's percentiles are whole milliseconds, so the mean is compared.
  base = await restart({ WEBHOOKS_WORKER: 'false' });
  await run('create_1conn', '/api/documents/post', { ...creates, connections: 1 });
  let hooks = await addHooks();
  await run('create_webhooks5', '/api/documents/post', creates);
  await run('create_webhooks5_1conn', '/api/documents/post', { ...creates, connections: 1 });
  await new Promise((r) => setTimeout(r, 500)); // requests autocannon left in flight

  // 2. A node with the worker delivers that backlog (far more than it can send in the window):
  //    deliveries per second over a fixed window once it is up.
  base = await restart({});
  const before = await received();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, DELIVERY_WINDOW_MS));
  const got = (await received()) - before;
  const seconds = (performance.now() - started) / 1000;
  results.webhook_delivery = {
    scenario: 'webhook_delivery',
    dialect,
    deliveries: got,
    seconds: Math.round(seconds * 10) / 10,
    per_s: Math.round(got / seconds),
  };
  process.stdout.write(JSON.stringify(results.webhook_delivery) + '\n');
  await removeHooks(hooks);

  // 3. Writes while the same node delivers what they queue.
  hooks = await addHooks();
  await run('create_webhooks5_delivering', '/api/documents/post', creates);
  await removeHooks(hooks);
}
