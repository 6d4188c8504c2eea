import { sendGuarded } from '../../net/guarded-request.js';
import {
  claimDueDeliveries,
  deleteFinishedDeliveries,
  disableWebhook,
  finishAttempt,
  type AttemptRecord,
  type ClaimedDelivery,
} from '../../storage/webhooks/webhook-claims.js';
import type { Services } from '../services.js';
import { attemptOutcome, nextAttemptAt, type AttemptOutcome } from './attempt-outcome.js';
import { webhookHeaders } from './sign-payload.js';

/**
 * Delivery attempts (docs/webhooks.md, "Delivery" and "Retries"). The worker (jobs/) claims and
 * calls `deliverClaimed`; `POST /webhooks/:id/test` calls `sendWebhook` directly, so both send
 * through the same code.
 */

/** A claim outlives the slowest attempt with room to spare, so a live attempt is never taken over. */
export function claimLeaseMs(svc: Services): number {
  return Math.max(60_000, 2 * svc.config.webhooks.timeoutMs);
}

/** Claims up to `limit` due deliveries for this node. */
export async function claimDeliveries(svc: Services, limit: number): Promise<ClaimedDelivery[]> {
  const now = svc.now();
  return claimDueDeliveries(svc.database, {
    now: now.toISOString(),
    claimUntil: new Date(now.getTime() + claimLeaseMs(svc)).toISOString(),
    limit,
  });
}

/** One signed POST of `payload` to `url`; never throws for what the receiver or the network did. */
export async function sendWebhook(
  svc: Services,
  d: { url: string; secretEnc: string; eventId: string; payload: string },
): Promise<AttemptOutcome> {
  // 1. Open the secret and sign this attempt (a fresh timestamp each time; the id stays the event's).
  //    A secret that no longer opens (the encryption key was changed) fails for good, not in a loop.
  let secret: string;
  try {
    secret = svc.secretBox.open(d.secretEnc);
  } catch {
    return {
      kind: 'final',
      statusCode: null,
      durationMs: null,
      error: 'the signing secret cannot be opened (was security.encryptionKey changed?); rotate it',
    };
  }
  const headers = webhookHeaders(secret, d.eventId, d.payload);
  // 2. The guarded POST: checked addresses only, no redirects, one deadline.
  const result = await sendGuarded({
    url: d.url,
    headers: { ...headers, 'user-agent': 'Vellum-Webhooks/1' },
    body: d.payload,
    timeoutMs: svc.config.webhooks.timeoutMs,
    allowPrivateNetworks: svc.config.webhooks.allowPrivateNetworks,
  });
  // 3. What it means: delivered, worth retrying, or final.
  return attemptOutcome(result);
}

/** Attempts one claimed delivery and records the outcome while the claim holds. */
export async function deliverClaimed(svc: Services, claim: ClaimedDelivery): Promise<void> {
  // 1. Send. A test event retried by hand is still one attempt: never rescheduled, never counted.
  const outcome = await sendWebhook(svc, claim);
  const oneShot = claim.eventType === 'webhook.test';
  const now = svc.now();
  // 2. The row's new state: delivered; failed with the next retry; or dead (final, or schedule spent).
  const record: AttemptRecord =
    outcome.kind === 'delivered'
      ? {
          status: 'succeeded',
          nextAttemptAt: null,
          statusCode: outcome.statusCode,
          durationMs: outcome.durationMs,
          error: null,
          deliveredAt: now.toISOString(),
        }
      : failedRecord(
          outcome,
          outcome.kind === 'retryable' && !oneShot ? nextAttemptAt(now, claim.attempts, svc.config.webhooks.retryScheduleMs) : null,
        );
  // 3. Only if the row is still ours (a node whose claim ran out must not overwrite a newer
  //    attempt), with the hook's failure run: reset on success, one more on failure.
  const done = await finishAttempt(svc.database, claim, record, !oneShot);
  if (!done.recorded) {
    svc.log.warn({ deliveryId: claim.id }, 'webhooks: claim lost before the attempt was recorded');
    return;
  }
  svc.metrics.webhookAttempt(
    record.status as 'succeeded' | 'failed' | 'dead',
    outcome.durationMs === null ? undefined : outcome.durationMs / 1000,
  );
  // 4. A run that reached the limit switches the hook off.
  if (outcome.kind !== 'delivered' && !oneShot && done.failures >= svc.config.webhooks.disableAfterFailures) {
    await switchOff(svc, claim.webhookId, done.failures, outcome.error);
  }
}

function failedRecord(outcome: Exclude<AttemptOutcome, { kind: 'delivered' }>, next: Date | null): AttemptRecord {
  return {
    status: next ? 'failed' : 'dead',
    nextAttemptAt: next ? next.toISOString() : null,
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    error: outcome.error,
    deliveredAt: null,
  };
}

async function switchOff(svc: Services, webhookId: string, failures: number, lastError: string): Promise<void> {
  const reason = `${failures} failed attempts in a row; last: ${lastError}`;
  if (await disableWebhook(svc.database, webhookId, svc.now().toISOString(), reason)) {
    // The outbox (here and, through the change bus, on other nodes) stops queueing for it; its
    // queued deliveries wait until it is switched on again.
    svc.activeWebhooks.invalidate();
    svc.events.notifyWebhooksChanged();
    svc.log.warn({ webhookId, reason }, 'webhooks: switched off after repeated failures');
  }
}

/** Deletes succeeded and dead deliveries older than `webhooks.retention`; answers how many. */
export async function deleteOldDeliveries(svc: Services): Promise<number> {
  const before = new Date(svc.now().getTime() - svc.config.webhooks.retentionMs).toISOString();
  return deleteFinishedDeliveries(svc.database, before);
}
