import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook secrets and signatures in the Standard Webhooks form (docs/webhooks.md, "Signatures";
 * https://www.standardwebhooks.com): the secret is `whsec_` + base64 of 24 random bytes, and the
 * signature is `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}`, keyed by the
 * base64-decoded part after `whsec_`. Receivers verify with any Standard Webhooks library.
 */

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

/** The HMAC key: the bytes behind the prefix. */
function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** `v1,<base64 HMAC-SHA256>` over `${id}.${timestampSeconds}.${body}`; the body exactly as sent. */
export function signPayload(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface WebhookHeaders {
  'content-type': 'application/json';
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The headers of one delivery attempt. `id` is the payload's id (the same on every retry, so a
 * receiver can drop duplicates); the timestamp is the attempt's, in unix seconds.
 */
export function webhookHeaders(secret: string, id: string, body: string, timestampSeconds = Math.floor(Date.now() / 1000)): WebhookHeaders {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signPayload(secret, id, timestampSeconds, body),
  };
}
