import type { ListResult } from './list-result.js';
import type { Transport } from './transport.js';

/** A webhook as served (docs/api.md, "Webhooks"): never its secret, which only create and rotate return. */
export interface Webhook {
  id: string;
  name: string;
  url: string;
  /** Event names (`document.published`) or patterns (`document.*`, `*`). */
  events: string[];
  /** Document types the hook is limited to; empty means all. */
  types: string[];
  active: boolean;
  /** Failed deliveries in a row; the worker switches the hook off after too many. */
  consecutiveFailures: number;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

export type WebhookDeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'dead';

/** One event queued for one webhook, with its last attempt. */
export interface WebhookDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface WebhookInput {
  name: string;
  /** http(s) only. */
  url: string;
  events: string[];
  /** Omitted or empty: every document type. */
  types?: string[];
  /** Omitted on create: true. */
  active?: boolean;
}

/** `/webhooks`. */
export class WebhooksApi {
  constructor(private readonly t: Transport) {}

  list(query: { limit?: number; offset?: number } = {}): Promise<ListResult<Webhook>> {
    return this.t.json({ method: 'GET', path: '/webhooks', query: { ...query } });
  }

  async get(id: string): Promise<Webhook> {
    return (await this.t.json<{ data: Webhook }>({ method: 'GET', path: `/webhooks/${encodeURIComponent(id)}` })).data;
  }

  /** `secret` (`whsec_…`) is shown this once. */
  async create(input: WebhookInput): Promise<{ secret: string; webhook: Webhook }> {
    return (await this.t.json<{ data: { secret: string; webhook: Webhook } }>({ method: 'POST', path: '/webhooks', json: input })).data;
  }

  /** Replaces name, url, events, types and active; switching a disabled hook on clears its failures. */
  async update(id: string, input: WebhookInput): Promise<Webhook> {
    return (await this.t.json<{ data: Webhook }>({ method: 'PUT', path: `/webhooks/${encodeURIComponent(id)}`, json: input })).data;
  }

  async delete(id: string): Promise<void> {
    await this.t.json({ method: 'DELETE', path: `/webhooks/${encodeURIComponent(id)}` });
  }

  /** The new secret is shown this once; the old one stops signing at once. */
  async rotateSecret(id: string): Promise<{ secret: string; webhook: Webhook }> {
    return (
      await this.t.json<{ data: { secret: string; webhook: Webhook } }>({
        method: 'POST',
        path: `/webhooks/${encodeURIComponent(id)}/rotate-secret`,
      })
    ).data;
  }

  /**
   * Sends a `webhook.test` event to the hook now (even a switched-off one) and answers the recorded
   * delivery: `succeeded`, or `dead` with the status code or error. Never retried.
   */
  async test(id: string): Promise<WebhookDelivery> {
    return (await this.t.json<{ data: WebhookDelivery }>({ method: 'POST', path: `/webhooks/${encodeURIComponent(id)}/test` })).data;
  }

  /** Newest first. */
  deliveries(
    id: string,
    query: { status?: WebhookDeliveryStatus; limit?: number; offset?: number } = {},
  ): Promise<ListResult<WebhookDelivery>> {
    return this.t.json({ method: 'GET', path: `/webhooks/${encodeURIComponent(id)}/deliveries`, query: { ...query } });
  }

  /** A failed or dead delivery goes back in the queue, due now (409 otherwise). */
  async retryDelivery(id: string, deliveryId: string): Promise<WebhookDelivery> {
    return (
      await this.t.json<{ data: WebhookDelivery }>({
        method: 'POST',
        path: `/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
      })
    ).data;
  }
}
