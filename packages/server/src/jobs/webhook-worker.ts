import { claimDeliveries, deleteOldDeliveries, deliverClaimed } from '../domain/webhooks/deliver-webhook.js';
import type { Services } from '../domain/services.js';

/**
 * The webhook delivery worker (docs/webhooks.md, "Delivery"): claims due deliveries in batches
 * and attempts them concurrently, at most `maxInFlight` at a time. It claims again at once when
 * the outbox calls `svc.deliveryQueue.wake()`, when a batch came back full (more may be due) or
 * when half its slots have freed up; otherwise it polls every `pollMs`, which is how it finds
 * retries coming due and rows other nodes queued. Now and then it deletes old finished rows.
 */

export interface WebhookWorker {
  /** Claim now instead of at the next poll. */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight (each bounded by `webhooks.timeout`). */
  stop(): Promise<void>;
}

export interface WebhookWorkerOptions {
  maxInFlight?: number;
  pollMs?: number;
}

export function startWebhookWorker(svc: Services, opts: WebhookWorkerOptions = {}): WebhookWorker {
  const maxInFlight = opts.maxInFlight ?? 16;
  const pollMs = opts.pollMs ?? 1_000;
  // Old rows are swept a few times per retention period, at least once an hour.
  const sweepEveryMs = Math.min(3_600_000, Math.max(1_000, svc.config.webhooks.retentionMs / 10));
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let woken = false;
  let release: (() => void) | undefined;
  let lastSweep = 0;

  const wake = () => {
    woken = true;
    release?.();
  };
  const unlisten = svc.deliveryQueue.onWake(wake);

  /** Until woken, or `ms` passed. A wake that came while claiming is not lost: `woken` stays set. */
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopping) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        release = undefined;
        resolve();
      }
      release = done;
    });

  const attempt = (claim: Parameters<typeof deliverClaimed>[1]) => {
    const running: Promise<void> = deliverClaimed(svc, claim)
      .catch((err: unknown) => svc.log.error({ err, deliveryId: claim.id }, 'webhooks: delivery attempt failed'))
      .finally(() => {
        inFlight.delete(running);
        // Half the slots free: worth a claim (one claim per freed slot would be a query per attempt).
        if (inFlight.size === Math.floor(maxInFlight / 2)) wake();
      });
    inFlight.add(running);
  };

  const sweep = async () => {
    if (Date.now() - lastSweep < sweepEveryMs) return;
    lastSweep = Date.now();
    try {
      const deleted = await deleteOldDeliveries(svc);
      if (deleted > 0) svc.log.info({ deleted }, 'webhooks: deleted old deliveries');
    } catch (err) {
      svc.log.warn({ err }, 'webhooks: could not delete old deliveries');
    }
  };

  const loop = async () => {
    while (!stopping) {
      woken = false;
      const free = maxInFlight - inFlight.size;
      let claimed = 0;
      if (free > 0) {
        try {
          const batch = await claimDeliveries(svc, free);
          claimed = batch.length;
          // Stopping while the claim ran: these are sent anyway, and stop() waits for them.
          for (const claim of batch) attempt(claim);
        } catch (err) {
          // The database cannot answer (503 elsewhere): try again at the next poll.
          svc.log.warn({ err }, 'webhooks: could not claim deliveries');
        }
      }
      await sweep();
      if (stopping) break;
      if (free > 0 && claimed === free) continue;
      await pause(pollMs);
    }
  };
  const running = loop();

  return {
    wake,
    async stop() {
      stopping = true;
      unlisten();
      release?.();
      await running;
      // Each attempt ends by its own deadline; this cap only guards against a hung database write.
      const cap = svc.config.webhooks.timeoutMs + 5_000;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...inFlight]),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, cap);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}
