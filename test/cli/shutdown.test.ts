import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../helpers/serve-process.js';

/**
 * The drained shutdown of `vellum serve` (docs/operations.md, "Shutdown"): on SIGTERM it stops
 * accepting connections and lets a request in flight (here an upload whose body is still
 * arriving) finish, then exits 0; a request that outlasts `server.shutdownTimeoutMs` does not
 * hold the process: it exits 1, saying so.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function serveWith(shutdownTimeoutMs: number): Promise<ServeProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-shutdown-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'vellum.config.json'), JSON.stringify({ server: { shutdownTimeoutMs }, security: { bcryptRounds: 4 } }));
  return startServe(dir, { VELLUM_ADMIN_USERNAME: 'admin', VELLUM_ADMIN_PASSWORD: 'admin-password-1' });
}

async function token(api: string): Promise<string> {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin-password-1' }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** An upload whose body is sent in two halves, the second when the test says. */
function slowUpload(api: string, bearer: string) {
  const boundary = 'vellum-shutdown-test';
  const body = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="notes.txt"\r\ncontent-type: text/plain\r\n\r\n` +
      'line of text\n'.repeat(20_000) +
      `\r\n--${boundary}--\r\n`,
  );
  const url = new URL(`${api}/media`);
  const req = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': body.length,
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  answer.catch(() => undefined);
  const half = Math.floor(body.length / 2);
  req.write(body.subarray(0, half));
  return { answer, finish: () => req.end(body.subarray(half)), abort: () => req.destroy() };
}

/** Whether a new connection to the port is taken. */
function accepts(api: string): Promise<boolean> {
  const url = new URL(api);
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const exitOf = (p: ServeProcess) =>
  new Promise<{ code: number | null; at: number }>((resolve) => {
    if (p.child.exitCode !== null) resolve({ code: p.child.exitCode, at: Date.now() });
    else p.child.once('exit', (code) => resolve({ code, at: Date.now() }));
  });

describe('vellum serve on SIGTERM', () => {
  it('stops accepting, finishes the upload in flight (201), then exits 0', async () => {
    const p = await serveWith(10_000);
    const upload = slowUpload(p.api, await token(p.api));
    await new Promise((r) => setTimeout(r, 300));
    const exited = exitOf(p);
    p.child.kill('SIGTERM');
    await expect.poll(() => accepts(p.api), { timeout: 5_000 }).toBe(false);
    expect(p.child.exitCode).toBeNull();
    upload.finish();
    const answer = await upload.answer;
    expect(answer.status, answer.body).toBe(201);
    expect((await exited).code).toBe(0);
    expect(p.output()).toContain('SIGTERM: shutting down (requests in flight have 10000 ms to finish)');
  });

  it('a request still running after server.shutdownTimeoutMs does not hold it: exit 1, saying why', async () => {
    const p = await serveWith(800);
    const upload = slowUpload(p.api, await token(p.api));
    await new Promise((r) => setTimeout(r, 300));
    const exited = exitOf(p);
    const signalled = Date.now();
    p.child.kill('SIGTERM');
    const { code, at } = await exited;
    upload.abort();
    expect(code).toBe(1);
    expect(at - signalled).toBeGreaterThanOrEqual(700);
    expect(at - signalled).toBeLessThan(8_000);
    expect(p.output()).toContain('requests still running after 800 ms (server.shutdownTimeoutMs); exiting');
  });
});
