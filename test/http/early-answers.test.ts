import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_LIMIT, DRAIN_TIMEOUT_MS } from '../../packages/server/src/http/plugins/unread-body.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { expectSpecError } from '../helpers/expect-error.js';
import { multipartUpload } from '../helpers/multipart-upload.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * Answers given before a request body is read (docs/api.md, "Errors": "An answer given before the
 * body is read"): the connection must serve the next request at once. A keep-alive client with
 * one connection sends the refused request, then `GET /health`; before the fix the health check
 * waited for the keep-alive timeout (72 s) about one time in three, because the unread rest of
 * the upload sat in front of it on the connection. The client is Node's own keep-alive `Agent`
 * with `maxSockets: 1` (the undici `Agent` inside Node's fetch is not exported, and the project
 * does not depend on the undici package): one connection, reused while the server keeps it.
 */

const MAX_FILE_SIZE = 5 * 1024 * 1024;
const ROUNDS = 20;
/** The client gives up on the follow-up after this long: the failure, not a timing assertion on success. */
const FOLLOW_UP_DEADLINE_MS = 5_000;
const BOUNDARY = 'vellum-early-answer';

let t: TestApp;
let admin: string;
let viewer: string;
let port: number;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'vellum-early-answers-'));
  t = await startTestApp({ schemas: TEST_SCHEMAS, media: { dir: mediaDir, maxFileSize: MAX_FILE_SIZE } });
  admin = await t.login(ADMIN.username, ADMIN.password);
  viewer = await t.userToken('viewer');
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await t?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
  /** The request went out on a connection an earlier request had used. */
  reused: boolean;
}

interface Outgoing {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  /** Sent with Transfer-Encoding: chunked, so no length is announced. */
  chunked?: boolean;
}

/** One request through `agent`; rejects when no complete answer arrives within `deadlineMs`. */
function send(agent: Agent, out: Outgoing, deadlineMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer to ${out.method} ${out.path} within ${deadlineMs} ms`));
    }, deadlineMs);
    const req = request({ agent, host: '127.0.0.1', port, method: out.method, path: out.path, headers: out.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        answered = true;
        clearTimeout(timer);
        resolve({ statusCode: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString(), reused: req.reusedSocket });
      });
    });
    req.on('error', (err) => {
      // The server may stop reading the body once it has answered: the answer is what counts.
      if (answered) return;
      clearTimeout(timer);
      reject(err);
    });
    if (out.chunked && out.body) {
      for (let at = 0; at < out.body.length; at += 65_536) req.write(out.body.subarray(at, at + 65_536));
      req.end();
    } else req.end(out.body);
  });
}

/**
 * The refused request, then `GET /health` on the same keep-alive connection, `ROUNDS` times.
 * Returns the last round's two answers.
 */
async function refusedThenHealthy(
  make: () => Outgoing | Promise<Outgoing>,
  status: number,
  code: string,
): Promise<{ refused: Answer; health: Answer }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    let last: { refused: Answer; health: Answer } | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      const refused = await send(agent, await make(), 60_000);
      expectSpecError(refused, status, code);
      const health = await send(agent, { method: 'GET', path: '/api/health' }, FOLLOW_UP_DEADLINE_MS);
      expect(health.statusCode).toBe(200);
      last = { refused, health };
    }
    return last!;
  } finally {
    agent.destroy();
  }
}

/**
 * An anonymous upload whose body starts but is not finished: the client waits for the answer
 * before sending more. Resolves with the answer's head and whether the server then closed the
 * connection (within the follow-up deadline; false if it kept it open).
 */
function answerToPartialBody(
  framing: Record<string, string>,
  closeDeadlineMs = FOLLOW_UP_DEADLINE_MS,
): Promise<{ head: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const headers = { host: `127.0.0.1:${port}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...framing };
    const start = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n`;
    const firstBytes = Buffer.concat([Buffer.from(start), randomBytes(64 * 1024)]);
    const chunked = framing['transfer-encoding'] === 'chunked';
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
    socket.write(`POST /api/media HTTP/1.1\r\n${lines.join('')}\r\n`);
    socket.write(
      chunked ? Buffer.concat([Buffer.from(`${firstBytes.length.toString(16)}\r\n`), firstBytes, Buffer.from('\r\n')]) : firstBytes,
    );
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      // The answer is in: give the server the follow-up deadline to close the connection.
      if (!timer && received.includes('\r\n\r\n'))
        timer = setTimeout(() => {
          socket.destroy();
          resolve({ head: received, closed: false });
        }, closeDeadlineMs);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      if (received.includes('\r\n\r\n')) resolve({ head: received, closed: true });
      else reject(new Error(`the connection closed without an answer: ${JSON.stringify(received)}`));
    });
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function upload(size: number, headers: Record<string, string>): Promise<Outgoing> {
  const form = await multipartUpload(randomBytes(size), 'big.bin');
  return { method: 'POST', path: '/api/media', headers: { ...headers, ...form.headers }, body: form.payload };
}

/** A multipart body of `head` (raw part headers and text), then a file part of `size` random bytes. */
function multipartAfter(head: string, size: number, headers: Record<string, string>): Outgoing {
  const body = Buffer.concat([
    Buffer.from(head),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    randomBytes(size),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return { method: 'POST', path: '/api/media', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, body };
}

describe('an answer given before the body is read leaves the connection usable', () => {
  it('an upload over media.maxFileSize: 413', async () => {
    await refusedThenHealthy(() => upload(MAX_FILE_SIZE + 1024 * 1024, bearer(admin)), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('an anonymous upload: 401', async () => {
    await refusedThenHealthy(() => upload(2 * 1024 * 1024, {}), 401, 'UNAUTHORIZED');
  });

  it('an upload by a caller who may not upload: 403', async () => {
    await refusedThenHealthy(() => upload(2 * 1024 * 1024, bearer(viewer)), 403, 'FORBIDDEN');
  });

  it('an unknown field before the file: 422 with the file unread', async () => {
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nx\r\n`;
    await refusedThenHealthy(() => multipartAfter(head, 3 * 1024 * 1024, bearer(admin)), 422, 'VALIDATION_ERROR');
  });

  it('a multipart part without a name: 400', async () => {
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n`;
    await refusedThenHealthy(() => multipartAfter(head, 3 * 1024 * 1024, bearer(admin)), 400, 'INVALID_INPUT');
  });

  it('an upload with a Content-Encoding: 415', async () => {
    const { refused } = await refusedThenHealthy(
      async () => {
        const out = await upload(3 * 1024 * 1024, bearer(admin));
        return { ...out, headers: { ...out.headers, 'content-encoding': 'gzip' } };
      },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    // Refused for its coding, unread; not for its type after reading it.
    expect(JSON.parse(refused.body).error.message).toMatch(/Content-Encoding/);
  });

  const bigJson = Buffer.from(JSON.stringify({ title: 'x'.repeat(3 * 1024 * 1024) }));
  const jsonPost = (headers: Record<string, string> = {}, chunked = false): Outgoing => ({
    method: 'POST',
    path: '/api/documents/post',
    headers: { ...bearer(admin), 'content-type': 'application/json', ...headers },
    body: bigJson,
    chunked,
  });

  it('a JSON body over server.bodyLimit, with a Content-Length: 413', async () => {
    await refusedThenHealthy(() => jsonPost(), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a JSON body over server.bodyLimit, chunked: 413', async () => {
    await refusedThenHealthy(() => jsonPost({}, true), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a JSON body with a Content-Encoding: 415', async () => {
    await refusedThenHealthy(() => jsonPost({ 'content-encoding': 'gzip' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('how the connection is kept or closed', () => {
  it('a small unread body is read and dropped: the next request goes out on the same connection', async () => {
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nx\r\n`;
    const { refused, health } = await refusedThenHealthy(
      () => multipartAfter(head, DRAIN_LIMIT / 4, bearer(admin)),
      422,
      'VALIDATION_ERROR',
    );
    expect(refused.headers.connection).not.toBe('close');
    expect(health.reused).toBe(true);
  });

  it.each([
    ['a Content-Length over the drain limit', { 'content-length': String(DRAIN_LIMIT + 1) }],
    ['no length announced (chunked)', { 'transfer-encoding': 'chunked' }],
  ])('a body still arriving with %s: Connection: close, and the server closes once it has answered', async (_name, framing) => {
    const { head, closed } = await answerToPartialBody(framing);
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(head.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(closed).toBe(true);
  });

  it('a small body whose rest never arrives: kept open while it may, closed once the drain times out', async () => {
    const { head, closed } = await answerToPartialBody({ 'content-length': String(DRAIN_LIMIT) }, DRAIN_TIMEOUT_MS + FOLLOW_UP_DEADLINE_MS);
    expect(head).toMatch(/^HTTP\/1\.1 401 /);
    expect(head.toLowerCase()).not.toContain('\r\nconnection: close\r\n');
    expect(closed).toBe(true);
  }, 60_000);
});
