import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signPayload, webhookHeaders } from '../../packages/server/src/domain/webhooks/sign-payload.js';

/** Webhook signatures in the Standard Webhooks form, checked by the `standardwebhooks` package (docs/webhooks.md, "Signatures"). */

const body = JSON.stringify({ id: 'evt_1', type: 'document.created', timestamp: '2026-11-25T01:00:00.000Z', data: { _id: 'p1' } });

describe('webhook signatures', () => {
  it('makes secrets of `whsec_` + base64 of 24 random bytes, a new one each time', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signs so that standardwebhooks verifies the headers', () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders(secret, 'evt_1', body);
    expect(headers['webhook-id']).toBe('evt_1');
    expect(headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('is refused by standardwebhooks when the body, the id or the secret differ', () => {
    const secret = newWebhookSecret();
    const headers = webhookHeaders(secret, 'evt_1', body);
    expect(() => new Webhook(secret).verify(body.replace('p1', 'p2'), headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('agrees with the library’s own signer and with the by-hand HMAC of docs/webhooks.md', () => {
    const secret = newWebhookSecret();
    const at = 1_764_032_400;
    const ours = signPayload(secret, 'evt_9', at, body);
    expect(ours).toBe(new Webhook(secret).sign('evt_9', new Date(at * 1000), body));
    const key = Buffer.from(secret.split('_')[1], 'base64');
    expect(ours).toBe(`v1,${createHmac('sha256', key).update(`evt_9.${at}.${body}`).digest('base64')}`);
  });

  it('puts the attempt’s time in webhook-timestamp (unix seconds)', () => {
    const headers = webhookHeaders(newWebhookSecret(), 'evt_1', body, 1_700_000_000);
    expect(headers['webhook-timestamp']).toBe('1700000000');
  });
});
