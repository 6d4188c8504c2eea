import type { Webhook, WebhookDelivery, WebhookDeliveryStatus } from '@vellum/client';
import { when } from '../../ui/when';

/** Whether a webhook sends: on, switched off by a user, or switched off by the delivery worker (with its reason and time). */
export function WebhookState({ webhook }: { webhook: Webhook }) {
  if (webhook.active) return <span className="badge badge-on">Active</span>;
  return (
    <>
      <span className="badge badge-off">Switched off</span>
      {webhook.disabledAt && (
        <div className="muted">
          by the delivery worker {when(webhook.disabledAt)}
          {webhook.disabledReason && `: ${webhook.disabledReason}`}
        </div>
      )}
    </>
  );
}

const STATUS_WORDS: Record<WebhookDeliveryStatus, string> = {
  pending: 'Pending',
  delivering: 'Delivering',
  succeeded: 'Succeeded',
  failed: 'Failed',
  dead: 'Dead',
};
export const DELIVERY_STATUSES = Object.keys(STATUS_WORDS) as WebhookDeliveryStatus[];
export const statusWord = (s: WebhookDeliveryStatus) => STATUS_WORDS[s] ?? s;

/** The attempt's error, unless it only repeats the status code shown beside it ("HTTP 500"). */
export const extraError = (d: WebhookDelivery): string | null =>
  d.lastError && d.lastError !== `HTTP ${d.lastStatusCode}` ? d.lastError : null;

/** A delivery's status as a coloured badge; its word says it too, so the colour is never the only sign. */
export function DeliveryBadge({ status }: { status: WebhookDeliveryStatus }) {
  return <span className={`badge delivery-${status}`}>{statusWord(status)}</span>;
}
