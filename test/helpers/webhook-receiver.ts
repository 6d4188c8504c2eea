import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: the raw body as sent, for signature checks. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * What the receiver answers: a status (`204` by default), a redirect to `location`, after
 * `delayMs` if given, or `hang` (never answers, for timeouts). Chosen per request, so a test can
 * fail the first N and then accept.
 */
export type Answer = { status: number; location?: string; delayMs?: number } | 'hang';

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>` + path. */
  url(path?: string): string;
  readonly requests: ReceivedRequest[];
  /** The requests to one path. */
  to(path: string): ReceivedRequest[];
  /** Sets how the next requests are answered: by path, given how many requests that path had before. */
  answer(fn: (req: ReceivedRequest, nthOnPath: number) => Answer): void;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback that records every request (test/http/webhook-*.test.ts). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let choose: (req: ReceivedRequest, nth: number) => Answer = () => ({ status: 204 });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const nth = requests.filter((r) => r.path === got.path).length;
      requests.push(got);
      const answer = choose(got, nth);
      if (answer === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const send = () => res.writeHead(answer.status, answer.location ? { location: answer.location } : {}).end();
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    requests,
    to: (path) => requests.filter((r) => r.path === path),
    answer(fn) {
      choose = fn;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
