// Baseline for the benchmark: a bare Fastify 5 server that answers one GET route with fixed bytes
// (the body the real server returned for `list20_expand`). The gap between this and Vellum is the
// cost of Vellum's own work (auth, query, expand, serialisation), not of Node or Fastify.
//
// Usage: node bench/baseline-server.mjs <body-file> <path>
// Listens on 127.0.0.1 on a free port and prints `port=<N>` on stdout once it is listening.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [bodyFile, path = '/'] = process.argv.slice(2);
if (!bodyFile) {
  process.stderr.write('usage: node bench/baseline-server.mjs <body-file> [path]\n');
  process.exit(64);
}
const body = readFileSync(bodyFile);

const app = Fastify({ logger: false });
app.get(path, (_req, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8').send(body);
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`port=${new URL(address).port}\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => app.close().then(() => process.exit(0)));
