// A webhook receiver for the benchmark: answers every POST with 204 and counts them; `GET /count`
// answers the count. A child process of its own, so receiving does not share the benchmark's
// event loop with autocannon.
//
// Usage: node bench/webhook-receiver.mjs — prints `port=<N>` once it is listening on 127.0.0.1.
import { createServer } from 'node:http';

let received = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received }));
    return;
  }
  req.resume();
  req.on('end', () => {
    received++;
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`port=${server.address().port}\n`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
