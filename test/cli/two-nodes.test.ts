import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../packages/client/src/index.js';
import { multipartUpload } from '../helpers/multipart-upload.js';
import { png } from '../helpers/media-fixtures.js';
import { PASSKEY_ORIGIN } from '../helpers/passkey-client.js';
import { SoftwareAuthenticator } from '../helpers/software-authenticator.js';
import { totpCode } from '../helpers/totp.js';
import { ADMIN, call, startTwoNodes, type TwoNodes } from '../helpers/two-nodes.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Two `vellum serve` processes as one site (docs/operations.md, "Several nodes"): PostgreSQL,
 * Redis and an S3 server (s3rver) shared, a round-robin proxy in front. Each flow's consecutive
 * requests land on different nodes (checked on the proxy's log), and the site behaves as one:
 * sessions, settings, media, events, webhooks and schedules; then one node is killed (SIGKILL)
 * under a thousand concurrent writes, and every write that was acknowledged is there.
 */
let two: TwoNodes;
let admin: string;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  two = await startTwoNodes({
    documents: { scheduleRunner: true },
    oauth2: { enabled: true },
    security: { passkey: { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin: PASSKEY_ORIGIN } },
  });
  const login = await two.site('POST', '/auth/login', { body: ADMIN });
  expect(login.status, login.body).toBe(200);
  admin = login.json().data.token;
}, 120_000);

afterAll(async () => {
  await two?.close();
  await receiver?.close();
});

/** Runs `flow` and checks that its requests through the proxy alternated between the nodes. */
async function alternating<T>(flow: () => Promise<T>): Promise<T> {
  const from = two.routed.length;
  const result = await flow();
  const used = two.routed.slice(from);
  expect(used.length).toBeGreaterThanOrEqual(2);
  used.forEach((node, i) => i > 0 && expect(node).not.toBe(used[i - 1]));
  return result;
}

const company = (name: string, token = admin) => two.site('POST', '/documents/company', { token, body: { name, _status: 'published' } });

describe('one site on two nodes', () => {
  it('a session: login on one node, refresh on the other, logout on the first; the spent refresh token is refused on the other', async () => {
    await alternating(async () => {
      const login = await two.site('POST', '/auth/login', { body: ADMIN });
      expect(login.status, login.body).toBe(200);
      const refreshed = await two.site('POST', '/auth/refresh', { body: { refreshToken: login.json().data.refreshToken } });
      expect(refreshed.status, refreshed.body).toBe(200);
      const { token, refreshToken } = refreshed.json().data;
      expect((await two.site('POST', '/auth/logout', { token, body: { refreshToken } })).status).toBe(200);
      expect((await two.site('POST', '/auth/refresh', { body: { refreshToken } })).status).toBe(401);
    });
  });

  it('the device flow: started on one node, approved on the other, redeemed on the first', async () => {
    const formBody = (body: Record<string, string>) => ({
      body: Buffer.from(new URLSearchParams(body).toString()),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    await alternating(async () => {
      const started = await two.site('POST', '/auth/device', formBody({ client_id: 'service-cli', scope: 'content:read' }));
      expect(started.status, started.body).toBe(200);
      const { device_code: deviceCode, user_code: userCode } = started.json();
      const approved = await two.site('POST', '/auth/device/verify', { token: admin, body: { user_code: userCode, action: 'approve' } });
      expect(approved.status, approved.body).toBe(200);
      const redeemed = await two.site(
        'POST',
        '/auth/token',
        formBody({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: 'service-cli' }),
      );
      expect(redeemed.status, redeemed.body).toBe(200);
      expect(redeemed.json().access_token).toEqual(expect.any(String));
    });
  });

  it('a TOTP sign-in: set up on one node, the code checked on the other; the login finished on the node after its first step', async () => {
    const made = await two.site('POST', '/users', {
      token: admin,
      body: { username: 'twofactor', email: 'twofactor@example.com', password: 'two-factor-pass-1', role: 'editor' },
    });
    expect(made.status, made.body).toBe(201);
    const user = { username: 'twofactor', password: 'two-factor-pass-1' };
    const session = (await two.site('POST', '/auth/login', { body: user })).json().data.token as string;
    await alternating(async () => {
      const setup = await two.site('POST', '/auth/mfa/setup/totp', { token: session });
      expect(setup.status, setup.body).toBe(200);
      const secret = setup.json().data.secret as string;
      const enabled = await two.site('POST', '/auth/mfa/setup/totp/verify', { token: session, body: { code: totpCode(secret) } });
      expect(enabled.status, enabled.body).toBe(200);
      const first = await two.site('POST', '/auth/login', { body: user });
      expect(first.json().data.mfaToken).toEqual(expect.any(String));
      // The next period's code: the one just used is spent (the replay guard is shared too).
      const done = await two.site('POST', '/auth/mfa/verify', {
        body: { method: 'totp', mfaToken: first.json().data.mfaToken, code: totpCode(secret, Date.now() + 30_000) },
      });
      expect(done.status, done.body).toBe(200);
      expect(done.json().data.token).toEqual(expect.any(String));
    });
  });

  it('a passkey: registered across both nodes, and a sign-in whose options came from one node verified on the other', async () => {
    const key = new SoftwareAuthenticator({ origin: PASSKEY_ORIGIN, rpId: 'localhost' });
    await alternating(async () => {
      const options = await two.site('POST', '/auth/passkey/register/options', { token: admin, body: {} });
      expect(options.status, options.body).toBe(200);
      const registered = await two.site('POST', '/auth/passkey/register/verify', {
        token: admin,
        body: { response: key.register(options.json().data) },
      });
      expect(registered.status, registered.body).toBe(201);
      const challenge = await two.site('POST', '/auth/passkey/login/options', { body: {} });
      const signedIn = await two.site('POST', '/auth/passkey/login/verify', { body: { response: key.assert(challenge.json().data) } });
      expect(signedIn.status, signedIn.body).toBe(200);
      expect(signedIn.json().data.token).toEqual(expect.any(String));
    });
  });

  it('settings changed on one node are what the other serves', async () => {
    await alternating(async () => {
      const put = await two.site('PUT', '/config/settings', { token: admin, body: { siteName: 'Two nodes, one site' } });
      expect(put.status, put.body).toBe(200);
      const got = await two.site('GET', '/config/settings', { token: admin });
      expect(got.json().data.siteName).toBe('Two nodes, one site');
    });
  });

  it('media uploaded through one node is served by the other (S3), byte for byte', async () => {
    const image = await png(64, 48);
    const { payload, headers } = await multipartUpload(image, 'both.png');
    await alternating(async () => {
      const up = await two.site('POST', '/media', { token: admin, body: payload, headers });
      expect(up.status, up.body).toBe(201);
      const file = await two.site('GET', `/media/files/${up.json().data.filename}`);
      expect(file.status).toBe(200);
      expect(file.raw.equals(image)).toBe(true);
      const record = await two.site('GET', `/media/${up.json().data._id}`, { token: admin });
      expect(record.json().data.sha256).toBe(up.json().data.sha256);
    });
  });

  it('an event stream on one node sees the writes made on the other', async () => {
    const abort = new AbortController();
    const res = await fetch(`${two.nodes[0].api}/events?types=company`, {
      headers: { authorization: `Bearer ${admin}` },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const seen: string[] = [];
    const reading = (async () => {
      const reader = res.body!.getReader();
      let text = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += Buffer.from(value).toString('utf8');
        for (const m of text.matchAll(/"name":"(Streamed \d+)"/g)) if (!seen.includes(m[1])) seen.push(m[1]);
      }
    })().catch(() => undefined);
    try {
      for (let i = 0; i < 5; i++)
        expect((await call(two.nodes[1].api, 'POST', '/documents/company', { token: admin, body: { name: `Streamed ${i}` } })).status).toBe(
          201,
        );
      await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(5);
    } finally {
      abort.abort();
      await reading;
    }
  });

  it('after a Redis restart the event stream on one node sees the other node’s writes again', async () => {
    const abort = new AbortController();
    const res = await fetch(`${two.nodes[0].api}/events?types=company`, {
      headers: { authorization: `Bearer ${admin}` },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    let text = '';
    const reading = (async () => {
      const reader = res.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += Buffer.from(value).toString('utf8');
      }
    })().catch(() => undefined);
    try {
      await two.redis.stop();
      await two.redis.start();
      // Until both nodes' channels are back, a write on B reaches only B's own streams: write until one arrives.
      let n = 0;
      await expect
        .poll(
          async () => {
            const name = `After restart ${n++}`;
            await call(two.nodes[1].api, 'POST', '/documents/company', { token: admin, body: { name } });
            await new Promise((r) => setTimeout(r, 200));
            return /"name":"After restart \d+"/.test(text);
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBe(true);
    } finally {
      abort.abort();
      await reading;
    }
  });

  it('webhooks: both nodes run a worker, and every event is delivered once', async () => {
    const hook = await two.site('POST', '/webhooks', {
      token: admin,
      body: { name: 'Once', url: receiver.url('/once'), events: ['document.created'] },
    });
    expect(hook.status, hook.body).toBe(201);
    const ids = await alternating(async () => {
      const made: string[] = [];
      for (let i = 0; i < 10; i++) made.push((await company(`Hooked ${i}`)).json().data._id);
      return made;
    });
    await expect.poll(() => receiver.to('/once').length, { timeout: 15_000 }).toBe(10);
    // A little longer: a second delivery of any of them would arrive now.
    await new Promise((r) => setTimeout(r, 1_500));
    const delivered = receiver.to('/once').map((r) => JSON.parse(r.body).data._id as string);
    expect(delivered.sort()).toEqual([...ids].sort());
    expect(new Set(receiver.to('/once').map((r) => r.headers['webhook-id'])).size).toBe(10);
  });

  it('a schedule due while both runners poll is run once', async () => {
    const hook = await two.site('POST', '/webhooks', {
      token: admin,
      body: { name: 'Published', url: receiver.url('/published'), events: ['document.published'] },
    });
    expect(hook.status, hook.body).toBe(201);
    const draft = await two.site('POST', '/documents/company', { token: admin, body: { name: 'Planned' } });
    const id = draft.json().data._id as string;
    const at = new Date(Date.now() + 1_500).toISOString();
    const planned = await two.site('POST', `/documents/company/${id}/schedule`, { token: admin, body: { action: 'publish', at } });
    expect(planned.status, planned.body).toBe(201);
    await expect
      .poll(async () => (await two.site('GET', `/documents/company/${id}`, { token: admin })).json().data._status, { timeout: 10_000 })
      .toBe('published');
    await new Promise((r) => setTimeout(r, 2_000));
    expect(receiver.to('/published').filter((r) => JSON.parse(r.body).data._id === id)).toHaveLength(1);
    const schedules = (await two.site('GET', `/schedules?documentId=${id}`, { token: admin })).json().data;
    expect(schedules.map((s: { status: string }) => s.status)).toEqual(['done']);
  });

  it('a cached list on one node shows a write the other acknowledged (staleness measured)', async () => {
    // The window: from B's acknowledgement to the start of the first read on A that shows the
    // write (0 when the first read after the acknowledgement does). B answers only once the change
    // is on its way to A (docs/operations.md, "Several nodes").
    const windowsMs: number[] = [];
    for (let round = 0; round < 100; round++) {
      await call(two.nodes[0].api, 'GET', '/documents/company?limit=3', { token: admin });
      const name = `Fresh ${round}`;
      expect(
        (await call(two.nodes[1].api, 'POST', '/documents/company', { token: admin, body: { name, _status: 'published' } })).status,
      ).toBe(201);
      const acknowledged = performance.now();
      for (let read = 0; ; read++) {
        const started = performance.now();
        const list = await call(two.nodes[0].api, 'GET', '/documents/company?limit=3', { token: admin });
        if (list.json().data.some((d: { name: string }) => d.name === name)) {
          windowsMs.push(read === 0 ? 0 : started - acknowledged);
          break;
        }
        expect(started - acknowledged).toBeLessThan(5_000);
      }
    }
    windowsMs.sort((a, b) => a - b);
    // The figure for docs/benchmarks.md (`npm run bench:two-nodes` measures 1 000 rounds); not asserted (a timing).
    console.log(
      `two nodes: a cached list on A stale after a write acknowledged by B in ${windowsMs.filter((w) => w > 0).length} of 100 rounds; window p50 ${windowsMs[49].toFixed(1)} ms, p99 ${windowsMs[98].toFixed(1)} ms, max ${windowsMs[99].toFixed(1)} ms`,
    );
  });

  it('read-your-writes: the client, each request on a new connection (so alternating nodes), never misses its own write', async () => {
    // A fetch that opens a connection per request, as a browser behind a balancer may.
    const viaProxy = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      const res = await call(`${url.origin}`, init?.method ?? 'GET', url.pathname + url.search, {
        headers: init?.headers as Record<string, string>,
        ...(init?.body !== undefined && init.body !== null ? { body: Buffer.from(init.body as string) } : {}),
      });
      const headers = Object.entries(res.headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)] as [string, string]]));
      return new Response(res.status === 204 ? null : res.raw, { status: res.status, headers });
    }) as typeof fetch;
    const client = createClient({ baseUrl: two.api, fetch: viaProxy });
    client.setToken(admin);
    const from = two.routed.length;
    let misses = 0;
    for (let round = 0; round < 200; round++) {
      const made = await client.create('company', { name: `Mine ${round}`, _status: 'published' });
      const page = await client.list('company', { limit: 5 });
      if (!page.data.some((d) => d._id === made._id)) misses++;
    }
    expect(misses).toBe(0);
    // Both nodes answered, in turn.
    expect(new Set(two.routed.slice(from))).toEqual(new Set([0, 1]));
  });

  it('the login rate limit is counted across both nodes (Redis)', async () => {
    const tries = await alternating(async () => {
      const answers: number[] = [];
      for (let i = 0; i < 4; i++)
        answers.push((await two.site('POST', '/auth/login', { body: { username: 'nobody', password: 'wrong-password' } })).status);
      return answers;
    });
    expect(tries).toEqual([401, 401, 401, 429]);
  });

  it('SIGKILL of one node during 1 000 concurrent writes: the other keeps answering, and every acknowledged write is there', async () => {
    const acknowledged: string[] = [];
    let failed = 0;
    let started = 0;
    const write = async () => {
      const n = started++;
      if (n === 300) two.nodes[0].child.kill('SIGKILL');
      try {
        const res = await company(`Under fire ${n}`);
        if (res.status === 201) acknowledged.push(res.json().data._id);
        else failed++;
      } catch {
        failed++; // the connection went to the node that died
      }
    };
    const workers = Array.from({ length: 20 }, async () => {
      while (started < 1_000) await write();
    });
    await Promise.all(workers);
    expect(two.nodes[0].child.signalCode).toBe('SIGKILL');
    // Half the connections after the kill went to the dead node; the other half were answered.
    expect(acknowledged.length).toBeGreaterThan(500);
    expect(acknowledged.length + failed).toBe(1_000);
    const survivor = two.nodes[1].api;
    expect((await call(survivor, 'GET', '/health')).status).toBe(200);
    const missing: string[] = [];
    for (const id of acknowledged)
      if ((await call(survivor, 'GET', `/documents/company/${id}`, { token: admin })).status !== 200) missing.push(id);
    expect(missing).toEqual([]);
  }, 120_000);
});
