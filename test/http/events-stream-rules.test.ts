import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../packages/server/src/domain/shared/ids.js';
import type { TestApp } from '../helpers/app.js';
import { documentEvent, publish } from '../helpers/change-events.js';
import { openStream, payloads } from '../helpers/event-stream.js';
import { useContentApp } from '../helpers/use-content-app.js';

// GET /events (docs/realtime.md) with events published on the change bus directly: the stream's
// own rules (format, filters, permissions, resume, reset), apart from which writes publish what.
let t: TestApp;
let admin: string;
useContentApp((app, token) => {
  t = app;
  admin = token;
});

async function apiToken(permissions: string[]): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/tokens', token: admin, payload: { name: `t${uuidv7()}`, permissions } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.token as string;
}

describe('GET /events: the response', () => {
  it('is an event stream with retry first, and one message per event with id, event and JSON data', async () => {
    const s = await openStream(t, { token: admin });
    try {
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(s.headers.get('cache-control')).toBe('no-cache');
      expect(s.headers.get('x-accel-buffering')).toBe('no');
      const [event] = await publish(t, documentEvent('document.created', 'post', { data: { title: 'Hello' } }));
      const [m] = await s.waitForMessages(1);
      expect(s.retries).toEqual([2000]);
      expect(m.lastEventId).toBe(event.id);
      expect(m.event).toBe('document.created');
      expect(JSON.parse(m.data)).toEqual({
        id: event.id,
        type: 'document.created',
        timestamp: event.timestamp,
        subject: event.subject,
        document: event.data,
      });
    } finally {
      s.close();
    }
  });

  it('refuses unknown types and event patterns with 400', async () => {
    const a = await openStream(t, { token: admin, query: 'types=post,nosuch' });
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ error: { code: 'INVALID_INPUT' } });
    const b = await openStream(t, { token: admin, query: 'events=document.created,document.sung' });
    expect(b.status).toBe(400);
    const c = await openStream(t, { token: admin, query: 'events=doc*' });
    expect(c.status).toBe(400);
    const d = await openStream(t, { token: admin, query: 'bogus=1' });
    expect(d.status).toBe(400);
  });

  it('refuses a signed-in caller a type it may not read (403), and an anonymous one a closed type as unknown (400)', async () => {
    const token = await apiToken(['post:read']);
    expect((await openStream(t, { token, query: 'types=secret' })).status).toBe(403);
    // Published authors are public (documents.publicRead), so the type is open to it.
    expect((await openStream(t, { token, query: 'types=author' })).status).toBe(200);
    expect((await openStream(t, { query: 'types=secret' })).status).toBe(400);
  });

  it('answers 401 to a bad token', async () => {
    const s = await openStream(t, { token: 'not-a-token' });
    expect(s.status).toBe(401);
  });
});

describe('GET /events: filters', () => {
  it('?types= keeps document events of those types (other resources still pass)', async () => {
    const s = await openStream(t, { token: admin, query: 'types=author' });
    try {
      const [, author, media] = await publish(t, documentEvent('document.created', 'post'), documentEvent('document.created', 'author'), {
        id: uuidv7(),
        type: 'media.created',
        timestamp: new Date().toISOString(),
        data: { id: 'm1' },
        subject: { kind: 'media', id: 'm1' },
      });
      const got = await s.waitForMessages(2);
      expect(got.map((m) => m.lastEventId)).toEqual([author.id, media.id]);
    } finally {
      s.close();
    }
  });

  it('?events= takes the webhook patterns', async () => {
    const s = await openStream(t, { token: admin, query: 'events=document.deleted,media.*' });
    try {
      const [, deleted, , media] = await publish(
        t,
        documentEvent('document.created', 'post'),
        documentEvent('document.deleted', 'post'),
        {
          id: uuidv7(),
          type: 'user.created',
          timestamp: new Date().toISOString(),
          data: { id: 'u1' },
          subject: { kind: 'user', id: 'u1' },
        },
        {
          id: uuidv7(),
          type: 'media.deleted',
          timestamp: new Date().toISOString(),
          data: { id: 'm2' },
          subject: { kind: 'media', id: 'm2' },
        },
      );
      const got = await s.waitForMessages(2);
      expect(got.map((m) => m.event)).toEqual(['document.deleted', 'media.deleted']);
      expect(got.map((m) => m.lastEventId)).toEqual([deleted.id, media.id]);
    } finally {
      s.close();
    }
  });
});

describe('GET /events: permissions', () => {
  it('a token without read on a type never gets its events (public types: published only); users need users:read', async () => {
    const token = await apiToken(['post:read']);
    const s = await openStream(t, { token });
    try {
      const events = await publish(
        t,
        documentEvent('document.created', 'author', { status: 'draft' }),
        documentEvent('document.created', 'secret', { status: 'published' }),
        {
          id: uuidv7(),
          type: 'user.created',
          timestamp: new Date().toISOString(),
          data: { id: 'u1' },
          subject: { kind: 'user', id: 'u1' },
        },
        documentEvent('document.updated', 'post', { status: 'draft', data: { title: 'draft' } }),
      );
      const [published] = await publish(t, documentEvent('document.published', 'author'));
      const [m, p] = await s.waitForMessages(2);
      expect(m.lastEventId).toBe(events[3].id);
      expect(JSON.parse(m.data).document).toEqual(events[3].data);
      expect(p.lastEventId).toBe(published.id);
    } finally {
      s.close();
    }
  });

  it('anonymous callers (documents.publicRead) see published documents of public types only, and an unpublish without its body', async () => {
    const s = await openStream(t);
    try {
      const events = await publish(
        t,
        documentEvent('document.created', 'post', { status: 'draft' }),
        documentEvent('document.created', 'secret', { status: 'published' }),
        documentEvent('document.published', 'post', { status: 'published', data: { title: 'Out' } }),
        documentEvent('document.unpublished', 'post', { status: 'draft', rev: 3, data: { title: 'Back in' } }),
      );
      const got = await s.waitForMessages(2);
      expect(got.map((m) => m.lastEventId)).toEqual([events[2].id, events[3].id]);
      const [published, unpublished] = payloads(got);
      expect(published.document).toEqual(events[2].data);
      expect(unpublished).toEqual({
        id: events[3].id,
        type: 'document.unpublished',
        timestamp: events[3].timestamp,
        subject: events[3].subject,
      });
    } finally {
      s.close();
    }
  });
});

describe('GET /events: resume', () => {
  it('Last-Event-ID replays exactly the events after it, filtered, then follows live', async () => {
    const [first, second, third] = await publish(
      t,
      documentEvent('document.created', 'post'),
      documentEvent('document.updated', 'post'),
      documentEvent('document.updated', 'author'),
    );
    const s = await openStream(t, { token: admin, query: 'types=post', headers: { 'last-event-id': first.id } });
    try {
      const [live] = await publish(t, documentEvent('document.deleted', 'post'));
      const got = await s.waitForMessages(2);
      expect(got.map((m) => m.lastEventId)).toEqual([second.id, live.id]);
      expect(third.id).not.toBe(live.id);
    } finally {
      s.close();
    }
  });

  it('?lastEventId= does the same for clients that cannot set headers', async () => {
    const [first, second] = await publish(t, documentEvent('document.created', 'post'), documentEvent('document.updated', 'post'));
    const s = await openStream(t, { token: admin, query: `lastEventId=${first.id}` });
    try {
      const [m] = await s.waitForMessages(1);
      expect(m.lastEventId).toBe(second.id);
    } finally {
      s.close();
    }
  });

  it('an id no longer held gets a reset carrying the newest id, then live events', async () => {
    const [newest] = await publish(t, documentEvent('document.created', 'post'));
    const s = await openStream(t, { token: admin, headers: { 'last-event-id': uuidv7() } });
    try {
      const [reset] = await s.waitForMessages(1);
      expect(reset.event).toBe('reset');
      expect(reset.lastEventId).toBe(newest.id);
      const [live] = await publish(t, documentEvent('document.updated', 'post'));
      const got = await s.waitForMessages(2);
      expect(got[1].lastEventId).toBe(live.id);
    } finally {
      s.close();
    }
  });
});

describe('GET /events: HEAD', () => {
  it('has no HEAD route (a HEAD would hold a stream open with nothing to send)', async () => {
    const res = await t.request({ method: 'HEAD', url: '/api/events', token: admin });
    expect(res.statusCode).toBe(404);
  });
});
