import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { EventStreams } from '../../../domain/events/event-streams.js';
import type { StreamMessage } from '../../../domain/events/stream-message.js';
import { principalFromBearer, resolvePrincipal } from '../../../domain/identity/resolve-principal.js';
import type { Services } from '../../../domain/services.js';
import { ACCESS_COOKIE, readCookie } from '../../cookies.js';
import { errorResponses } from '../../schemas/common.js';
import { bearerCredential } from '../../bearer.js';

const Query = Type.Object(
  {
    types: Type.Optional(Type.String({ maxLength: 2000 })),
    events: Type.Optional(Type.String({ maxLength: 2000 })),
    lastEventId: Type.Optional(Type.String({ maxLength: 100 })),
    perspective: Type.Optional(Type.Union([Type.Literal('published'), Type.Literal('drafts')])),
    presence: Type.Optional(Type.String({ maxLength: 5000, description: '`type:id,…`: presence.updated events of these documents' })),
  },
  { additionalProperties: false },
);

/** How long a client waits before reconnecting (the SSE `retry` field). */
const RETRY_MS = 2000;
/**
 * A client that reads slower than events come would make the node hold its backlog in memory
 * without bound; past this much unsent output its stream ends (it resumes with Last-Event-ID).
 */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;

/** One SSE frame; ids and event names never hold a line break, data is one JSON line. */
function frame(m: StreamMessage): string {
  return `${m.id !== undefined ? `id: ${m.id}\n` : ''}event: ${m.event}\ndata: ${m.data}\n\n`;
}

/**
 * `GET /events` (docs/realtime.md): a `text/event-stream` of committed changes. The response is
 * written by hand (hijacked), so no onSend hook — the response cache, compression — ever holds it.
 */
export async function eventRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  const streams = new EventStreams(svc);
  // Before the server waits for open connections to end: otherwise close would wait forever.
  app.addHook('preClose', async () => streams.close());

  app.get<{ Querystring: Static<typeof Query> }>(
    '/events',
    {
      // A HEAD would open a stream whose body Node drops: the stream has no HEAD.
      exposeHeadRoute: false,
      schema: {
        querystring: Query,
        response: { 200: Type.String({ description: 'text/event-stream' }), ...errorResponses },
        produces: ['text/event-stream'],
      },
    },
    async (req, reply) => {
      const lastHeader = req.headers['last-event-id'];
      let pending = '';
      let flushed = false;
      const raw = reply.raw;
      const write = (text: string) => {
        if (!flushed) pending += text;
        else if (raw.writableEnded) return;
        else if (raw.writableLength > MAX_UNSENT_BYTES) opened.close();
        else raw.write(text);
      };
      const opened = streams.openStream(
        req.principal,
        {
          types: req.query.types,
          events: req.query.events,
          perspective: req.query.perspective,
          presence: req.query.presence,
          lastEventId: (typeof lastHeader === 'string' ? lastHeader : undefined) || req.query.lastEventId,
          reauthenticate: () => reauthenticate(svc, req),
        },
        { send: (m) => write(frame(m)), end: () => raw.end() },
      );
      // From here the response is ours: the headers Fastify's hooks set (CORS, request id) go along.
      reply.hijack();
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      raw.write(`retry: ${RETRY_MS}\n\n${pending}`);
      flushed = true;
      svc.metrics.eventStreams(1);
      const heartbeat = setInterval(() => {
        write(': ping\n\n');
        void opened.recheck();
      }, svc.config.realtime.heartbeatMs);
      const cleanup = () => {
        clearInterval(heartbeat);
        opened.close();
        svc.metrics.eventStreams(-1);
      };
      raw.on('close', cleanup);
    },
  );
}

/** The caller's credential resolved again, as the authenticate plugin resolved it for this request. */
async function reauthenticate(svc: Services, req: FastifyRequest) {
  const authorization = req.headers.authorization;
  const cookie = svc.config.security.cookie && !authorization ? readCookie(req, ACCESS_COOKIE) : undefined;
  const principal = cookie ? await principalFromBearer(svc, cookie) : await resolvePrincipal(svc, bearerCredential(authorization));
  return principal;
}
