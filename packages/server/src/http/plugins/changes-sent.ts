import type { FastifyInstance } from 'fastify';
import type { Services } from '../../domain/services.js';

/** How long a write's answer waits at most for its changes to leave: a channel that hangs must not hold every write. */
const MAX_WAIT_MS = 100;

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * On several nodes (a shared change bus), a write's answer leaves only once its changes have been
 * handed to the channel (Redis answered the PUBLISH; a NOTIFY sent by the write's own statement
 * went with its commit), so by the time the caller hears "written", the other nodes' caches are
 * already being told: a read that follows on another node finds the write (docs/operations.md,
 * "Several nodes"). One node has nothing to wait for, and gets no hook.
 */
export function registerChangesSent(app: FastifyInstance, svc: Services): void {
  if (!svc.events.crossesNodes) return;
  app.addHook('onSend', async (request, _reply, payload) => {
    if (READS.has(request.method)) return payload;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([svc.events.sent(), new Promise<void>((resolve) => (timer = setTimeout(resolve, MAX_WAIT_MS)))]);
    clearTimeout(timer);
    return payload;
  });
}
