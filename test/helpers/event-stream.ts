import type { AddressInfo } from 'node:net';
import { SseParser, type SseMessage } from '../../packages/client/src/sse-parser.js';
import type { TestApp } from './app.js';
import type { JsonObject } from './json-object.js';

/** A `GET /events` response being read: every message and comment so far, and waits on them. */
export interface OpenedStream {
  status: number;
  headers: Headers;
  /** The error body when the status is not 200. */
  body?: unknown;
  messages: SseMessage[];
  /** Comment lines (`: ping` → `ping`). */
  comments: string[];
  /** `retry:` values received. */
  retries: number[];
  /** Resolves when the server ends the response. */
  ended: Promise<void>;
  /** Waits until `n` messages (besides pings) arrived, and returns them. */
  waitForMessages(n: number, timeoutMs?: number): Promise<SseMessage[]>;
  /** Waits until `n` comments arrived. */
  waitForComments(n: number, timeoutMs?: number): Promise<string[]>;
  close(): void;
}

/** The base URL of an app that listens on loopback (started on first use). */
export async function listeningUrl(t: TestApp): Promise<string> {
  const address = t.app.server.server.address() as AddressInfo | null;
  if (!address) await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
}

/** Opens the stream over a real socket (Fastify inject would wait for a response that never ends). */
export async function openStream(
  t: TestApp,
  opts: { token?: string; query?: string; headers?: Record<string, string> } = {},
): Promise<OpenedStream> {
  const base = await listeningUrl(t);
  const abort = new AbortController();
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const res = await fetch(`${base}/events${opts.query ? `?${opts.query}` : ''}`, { headers, signal: abort.signal });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  const parser = new SseParser(
    (m) => {
      messages.push(m);
      wake();
    },
    (ms) => retries.push(ms),
  );
  let ended: Promise<void> = Promise.resolve();
  let body: unknown;
  if (res.status !== 200) body = await res.json();
  else {
    ended = (async () => {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          const text = decoder.decode(value, { stream: true });
          // The parser skips comments; they are collected here (the tests' pings).
          for (const m of text.matchAll(/^: ?(.*)$/gm)) comments.push(m[1]);
          parser.push(text);
          wake();
        }
      } catch {
        // aborted by close()
      }
      wake();
    })();
  }
  let done = false;
  void ended.then(() => (done = true));
  const waitFor = <T>(check: () => T | undefined, what: string, timeoutMs: number) =>
    new Promise<T>((resolve, reject) => {
      const attempt = () => {
        const value = check();
        if (value !== undefined) {
          waiters.delete(attempt);
          clearTimeout(timer);
          resolve(value);
        } else if (done) {
          waiters.delete(attempt);
          clearTimeout(timer);
          reject(new Error(`stream ended while waiting for ${what}; got ${JSON.stringify(messages)}`));
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(attempt);
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(messages)}`));
      }, timeoutMs);
      waiters.add(attempt);
      attempt();
    });
  return {
    status: res.status,
    headers: res.headers,
    body,
    messages,
    comments,
    retries,
    ended,
    waitForMessages: (n, timeoutMs = 10_000) =>
      waitFor(() => (messages.length >= n ? messages.slice(0, n) : undefined), `${n} messages`, timeoutMs),
    waitForComments: (n, timeoutMs = 10_000) =>
      waitFor(() => (comments.length >= n ? comments.slice(0, n) : undefined), `${n} comments`, timeoutMs),
    close: () => abort.abort(),
  };
}

/** The JSON data of each message. */
export function payloads(messages: SseMessage[]): JsonObject[] {
  return messages.map((m) => JSON.parse(m.data) as JsonObject);
}
