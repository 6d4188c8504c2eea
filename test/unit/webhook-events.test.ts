import { describe, expect, it } from 'vitest';
import { eventMatches, isEventPattern, subscribesTo, WEBHOOK_EVENTS } from '../../packages/server/src/domain/webhooks/webhook-events.js';
import { newWebhookSecret } from '../../packages/server/src/domain/webhooks/sign-payload.js';

describe('webhook event names and patterns', () => {
  it('lists the document (drafts too), media and user events', () => {
    expect([...WEBHOOK_EVENTS].sort()).toEqual(
      [
        'document.created',
        'document.updated',
        'document.deleted',
        'document.published',
        'document.unpublished',
        'document.draft.updated',
        'document.draft.deleted',
        'media.created',
        'media.updated',
        'media.deleted',
        'user.created',
        'user.updated',
        'user.deleted',
      ].sort(),
    );
  });

  it('accepts listed names, `*` and `<resource>.*` for known resources', () => {
    for (const e of WEBHOOK_EVENTS) expect(isEventPattern(e)).toBe(true);
    for (const p of ['*', 'document.*', 'media.*', 'user.*']) expect(isEventPattern(p)).toBe(true);
  });

  it('refuses unknown names and other globs', () => {
    for (const p of [
      '',
      'document',
      'document.exploded',
      'thing.*',
      '*.created',
      'document.pub*',
      '**',
      'document.*.x',
      'Document.created',
      '.*',
    ])
      expect(isEventPattern(p), p).toBe(false);
  });

  it('matches exact names, resource wildcards and `*`', () => {
    expect(eventMatches('document.published', 'document.published')).toBe(true);
    expect(eventMatches('document.published', 'document.unpublished')).toBe(false);
    expect(eventMatches('document.*', 'document.deleted')).toBe(true);
    expect(eventMatches('document.*', 'media.deleted')).toBe(false);
    // The dot is part of the prefix: `user.*` does not cover a resource merely starting with "user".
    expect(eventMatches('user.*', 'users.created')).toBe(false);
    expect(eventMatches('*', 'media.created')).toBe(true);
  });

  it('subscribes when any pattern matches', () => {
    expect(subscribesTo(['media.*', 'document.published'], 'document.published')).toBe(true);
    expect(subscribesTo(['media.*', 'document.published'], 'document.created')).toBe(false);
    expect(subscribesTo([], 'document.created')).toBe(false);
  });
});

describe('webhook secrets', () => {
  it('are whsec_ and base64 of 24 random bytes, different each time', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(24);
    expect(a).not.toBe(b);
  });
});
