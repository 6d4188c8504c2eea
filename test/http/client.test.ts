import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  VellumApiError,
  VellumClient,
  type ClientOptions,
  type ClientTokens,
  type VellumDocument,
} from '../../packages/client/src/index.js';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { png } from '../helpers/media-fixtures.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { totpCode } from '../helpers/totp.js';

/** A clock the test moves: token expiry and TOTP codes follow it, on the server and in the client. */
let clock = Date.parse('2026-03-01T10:00:00.000Z');
const tick = (ms: number) => (clock += ms);
const SIXTEEN_MINUTES = 16 * 60_000; // past security.tokenExpiry below
const totp = (secret: string) => totpCode(secret, clock);

interface Author {
  name: string;
}
interface Post {
  title: string;
  views?: number;
  category?: 'news' | 'guide' | 'opinion';
  tags?: string[];
  author?: string | VellumDocument<Author>;
  body?: string;
  seo?: { title?: string };
}

let t: TestApp;
let baseUrl: string;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = mkdtempSync(join(tmpdir(), 'vellum-client-media-'));
  t = await startTestApp(
    {
      schemas: TEST_SCHEMAS,
      media: { dir: mediaDir },
      // A generous limit: the limit itself has its own app below.
      security: { tokenExpiry: '15m', rateLimit: { login: { windowMs: 900_000, max: 1000 } } },
    },
    { now: () => new Date(clock) },
  );
  await t.app.server.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}/api`;
});

afterAll(async () => {
  await t?.close();
  rmSync(mediaDir, { recursive: true, force: true });
});

/** A fetch that records `METHOD /path` of every request the client makes. */
function recorder() {
  const calls: string[] = [];
  const recordingFetch: typeof fetch = (input, init) => {
    calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
    return fetch(input, init);
  };
  return { calls, fetch: recordingFetch, count: (call: string) => calls.filter((c) => c === call).length };
}

const clientFor = (opts: Partial<ClientOptions> = {}) => new VellumClient({ baseUrl, now: () => clock, ...opts });

async function signedIn(username: string, password: string, opts: Partial<ClientOptions> = {}): Promise<VellumClient> {
  const client = clientFor(opts);
  const outcome = await client.login(username, password);
  expect(outcome.kind).toBe('signedIn');
  return client;
}

let admin: VellumClient;
beforeAll(async () => {
  admin = await signedIn(ADMIN.username, ADMIN.password);
});

let n = 0;
const PASSWORD = 'client-password-1';
/** A new user (created through the client) and its name. */
async function newUser(role = 'editor'): Promise<string> {
  const username = `client${++n}`;
  await admin.users.create({ username, email: `${username}@example.com`, password: PASSWORD, role });
  return username;
}

/** The rejection of a call, checked to be the typed error. */
async function refusal(promise: Promise<unknown>): Promise<VellumApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VellumApiError);
  return err as VellumApiError;
}

describe('documents', () => {
  it('saves a draft of a published document, reads it with a perspective, plans, publishes and discards', async () => {
    const posts = admin.documents<Post>('post');
    const live = await posts.create({ title: 'Client live', _status: 'published' });
    const draft = await posts.saveDraft(live._id, { title: 'Client draft' }, { ifMatch: { main: 1 } });
    expect(draft).toMatchObject({ _version: 'draft', _rev: 1, title: 'Client draft' });
    expect(await refusal(posts.saveDraft(live._id, { views: 1 }, { ifMatch: 9 }))).toMatchObject({ status: 412 });
    expect((await posts.saveDraft(live._id, { views: 1 }, { ifMatch: 1 }))._rev).toBe(2);
    expect((await posts.get(live._id)).title).toBe('Client live');
    expect((await posts.get(live._id))._draft).toMatchObject({ _rev: 2 });
    expect((await posts.get(live._id, { perspective: 'drafts' })).title).toBe('Client draft');
    const listed = await posts.list({ perspective: 'drafts', filter: { title: 'Client draft' } });
    expect(listed.data.map((d) => d._id)).toEqual([live._id]);
    expect(await posts.publishPlan(live._id)).toEqual({ publish: [{ type: 'post', id: live._id }], blockedBy: [] });
    expect((await posts.revisions(live._id, { kind: 'draft' })).data.map((r) => [r._rev, r.kind])).toEqual([
      [2, 'draft'],
      [1, 'draft'],
    ]);
    const published = await posts.publish(live._id);
    expect(published).toMatchObject({ _rev: 2, title: 'Client draft', views: 1 });
    await posts.saveDraft(live._id, { title: 'Thrown away' });
    await posts.discardDraft(live._id);
    expect((await posts.get(live._id, { perspective: 'drafts' }))._version).toBe('main');
    expect(await refusal(posts.discardDraft(live._id))).toMatchObject({ status: 404 });
  });

  it('asks for a preview token that reads drafts and nothing else', async () => {
    const posts = admin.documents<Post>('post');
    const live = await posts.create({ title: 'Previewed live', _status: 'published' });
    await posts.saveDraft(live._id, { title: 'Previewed draft' });
    const grant = await posts.preview(live._id);
    expect(Date.parse(grant.expiresAt)).toBeGreaterThan(clock);
    const previewer = clientFor();
    previewer.setToken(grant.token);
    expect((await previewer.documents<Post>('post').get(live._id, { perspective: 'drafts' })).title).toBe('Previewed draft');
    expect(await refusal(previewer.documents<Post>('post').patch(live._id, { title: 'No' }))).toMatchObject({ status: 403 });
  });

  it('schedules a publish, lists it for the document and across types, and cancels it', async () => {
    const posts = admin.documents<Post>('post');
    const doc = await posts.create({ title: 'Scheduled by the client' });
    const at = new Date(clock + 86_400_000);
    const schedule = await posts.schedule(doc._id, { action: 'publish', at });
    expect(schedule).toMatchObject({ type: 'post', documentId: doc._id, action: 'publish', at: at.toISOString(), status: 'pending' });
    expect((await posts.schedules(doc._id)).map((s) => s.id)).toEqual([schedule.id]);
    const listed = await admin.schedules.list({ type: ['post'], status: 'pending', from: at, to: new Date(at.getTime() + 1) });
    expect(listed.data.map((s) => s.id)).toContain(schedule.id);
    await admin.schedules.cancel(schedule.id);
    expect((await posts.schedules(doc._id))[0].status).toBe('cancelled');
    expect(await refusal(admin.schedules.cancel(schedule.id))).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(await refusal(posts.schedule(doc._id, { action: 'publish', at: new Date(clock - 1000) }))).toMatchObject({ status: 422 });
  });

  it('creates, reads, replaces, patches with If-Match, publishes and deletes through a typed handle', async () => {
    const posts = admin.documents<Post>('post');
    const created = await posts.create({ title: 'Client CRUD', views: 3, category: 'news' });
    expect(created).toMatchObject({ _type: 'post', _status: 'draft', _rev: 1, title: 'Client CRUD', views: 3 });
    expect((await posts.get(created._id)).title).toBe('Client CRUD');

    const patched = await posts.patch(created._id, { views: 4 }, { ifMatch: 1 });
    expect(patched).toMatchObject({ _rev: 2, views: 4, category: 'news' });
    const stale = await refusal(posts.patch(created._id, { views: 5 }, { ifMatch: 1 }));
    expect(stale).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });

    const replaced = await posts.replace(created._id, { title: 'Client CRUD replaced' }, { ifMatch: 2 });
    expect(replaced.title).toBe('Client CRUD replaced');
    expect(replaced.views).toBeUndefined();

    expect((await posts.publish(created._id))._status).toBe('published');
    expect((await posts.unpublish(created._id))._status).toBe('draft');

    await posts.delete(created._id);
    expect(await refusal(posts.get(created._id))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('deletes a referenced document only with force', async () => {
    const author = await admin.documents<Author>('author').create({ name: 'Referenced' });
    await admin.documents<Post>('post').create({ title: 'Refers', author: author._id });
    expect(await refusal(admin.documents('author').delete(author._id))).toMatchObject({ status: 409, code: 'CONFLICT' });
    await admin.documents('author').delete(author._id, { force: true });
    expect(await refusal(admin.documents('author').get(author._id))).toMatchObject({ status: 404 });
  });

  describe('query builder', () => {
    const TAG = 'qb';
    let authorId: string;
    beforeAll(async () => {
      authorId = (await admin.documents<Author>('author').create({ name: 'Ada' }))._id;
      const posts = admin.documents<Post>('post');
      const rows: Array<[string, number, Post['category']]> = [
        ['Quartz alpha', 5, 'news'],
        ['Quartz beta', 12, 'guide'],
        ['Quartz gamma', 30, 'opinion'],
        ['Quartz delta', 18, 'news'],
        ['Quartz epsilon', 25, 'guide'],
      ];
      // One after another, so that creation order is the order above.
      for (const [title, views, category] of rows) await posts.create({ title, views, category, tags: [TAG], author: authorId });
    });

    it('filters with operators, orders, and pages with meta', async () => {
      const q = admin
        .documents<Post>('post')
        .query()
        .where('tags', 'eq', TAG)
        .where('views', 'gt', 10)
        .where('category', 'in', ['news', 'guide'])
        .orderBy('-views');
      const page = await q.page();
      expect(page.data.map((d) => d.title)).toEqual(['Quartz epsilon', 'Quartz delta', 'Quartz beta']);
      expect(page.meta).toMatchObject({ total: 3, offset: 0 });

      const second = await q.limit(1).offset(1).page();
      expect(second.data.map((d) => d.title)).toEqual(['Quartz delta']);
      expect(second.meta).toEqual({ total: 3, limit: 1, offset: 1, nextCursor: expect.any(String) });

      const ascending = await admin.documents<Post>('post').query().where('tags', TAG).orderBy('title').all();
      expect(ascending.map((d) => d.title)).toEqual(['Quartz alpha', 'Quartz beta', 'Quartz delta', 'Quartz epsilon', 'Quartz gamma']);
      expect((await admin.documents<Post>('post').query().where('tags', TAG).where('views', 'lte', 5).first())?.title).toBe('Quartz alpha');
    });

    it('searches, expands references and selects fields', async () => {
      const found = await admin.documents<Post>('post').query().search('quartz gam').expand('author').fields(['title', 'author']).page();
      expect(found.data).toHaveLength(1);
      const [doc] = found.data;
      expect(doc.title).toBe('Quartz gamma');
      expect('views' in doc).toBe(false);
      expect(doc._id).toEqual(expect.any(String));
      expect(doc.author).toMatchObject({ _id: authorId, name: 'Ada' });
      expect((await admin.documents<Post>('post').get(doc._id, { expand: 'author' })).author).toMatchObject({ name: 'Ada' });
    });

    it('iterates over every matching document across pages', async () => {
      const r = recorder();
      const client = clientFor({ fetch: r.fetch, tokens: admin.tokens });
      const titles: string[] = [];
      for await (const doc of client.documents<Post>('post').query().where('tags', 'eq', TAG).orderBy('_createdAt', 'asc').limit(2))
        titles.push(doc.title);
      expect(titles).toEqual(['Quartz alpha', 'Quartz beta', 'Quartz gamma', 'Quartz delta', 'Quartz epsilon']);
      expect(r.count('GET /api/documents/post')).toBe(3);
    });

    it('types field names by T: an unknown field does not compile, dotted paths and system fields do', () => {
      const q = admin.documents<Post>('post').query();
      // @ts-expect-error `nosuch` is not a field of Post
      q.where('nosuch', 'eq', 1);
      // @ts-expect-error `in` takes a list
      q.where('category', 'in', 'news');
      expect(q.where('seo.title', 'startsWith', 'Ad').where('_status', 'published').orderBy('-_updatedAt').toString()).toBe(
        'filter%5Bseo.title%5D%5BstartsWith%5D=Ad&filter%5B_status%5D%5Beq%5D=published&orderBy=_updatedAt&order=desc',
      );
    });

    it('takes the same query as one object in list()', async () => {
      const page = await admin
        .documents<Post>('post')
        .list({ filter: { tags: TAG, views: { gte: 18, lt: 30 } }, orderBy: 'views', order: 'asc' });
      expect(page.data.map((d) => d.views)).toEqual([18, 25]);
    });
  });

  it('lists revisions, reads one and restores it', async () => {
    const posts = admin.documents<Post>('post');
    const doc = await posts.create({ title: 'Revised v1' });
    await posts.patch(doc._id, { title: 'Revised v2' });
    await posts.patch(doc._id, { title: 'Revised v3' });
    const revisions = await posts.revisions(doc._id);
    expect(revisions.data.map((r) => r._rev)).toEqual([3, 2, 1]);
    expect((await posts.revision(doc._id, 1))?.data.title).toBe('Revised v1');
    expect(await posts.revision(doc._id, 9)).toBeUndefined();
    const restored = await posts.restore(doc._id, 1);
    expect(restored).toMatchObject({ _rev: 4, title: 'Revised v1' });
  });
});

describe('sign-in outcomes', () => {
  it('a plain login is signedIn: the session tokens are held and reported to onTokens', async () => {
    const username = await newUser();
    const seen: Array<ClientTokens | undefined> = [];
    const client = clientFor({ onTokens: (tokens) => void seen.push(tokens) });
    const outcome = await client.login(username, PASSWORD);
    expect(outcome).toMatchObject({ kind: 'signedIn', user: { username } });
    expect(client.tokens).toMatchObject({ kind: 'session', accessToken: expect.any(String), refreshToken: expect.any(String) });
    expect(seen).toEqual([client.tokens]);
    expect((await client.auth.me()).username).toBe(username);

    await client.auth.logout();
    expect(client.tokens).toBeUndefined();
    expect(seen.at(-1)).toBeUndefined();
  });

  it('a TOTP user gets mfaRequired, finished with verifyMfa or a backup code', async () => {
    const username = await newUser();
    const enrolling = await signedIn(username, PASSWORD);
    const setup = await enrolling.mfa.setupTotp();
    const enabled = await enrolling.mfa.confirmTotp(totp(setup.secret));
    expect(enabled.backupCodes).toHaveLength(10);
    expect(await enrolling.mfa.status()).toMatchObject({ methods: ['totp'], backupCodesRemaining: 10 });
    tick(30_000);

    const client = clientFor();
    const outcome = await client.login(username, PASSWORD);
    if (outcome.kind !== 'mfaRequired') throw new Error(`expected mfaRequired, got ${outcome.kind}`);
    expect(outcome.methods).toEqual(['totp']);
    expect(client.tokens).toBeUndefined();
    await client.auth.verifyMfa({ mfaToken: outcome.mfaToken, code: totp(setup.secret) });
    expect((await client.auth.me()).username).toBe(username);

    const other = clientFor();
    const second = await other.login(username, PASSWORD);
    if (second.kind !== 'mfaRequired') throw new Error(`expected mfaRequired, got ${second.kind}`);
    expect(await refusal(other.auth.verifyBackupCode(second.mfaToken, 'WRONGCOD'))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    await other.auth.verifyBackupCode(second.mfaToken, enabled.backupCodes![0]);
    expect((await other.mfa.status()).backupCodesRemaining).toBe(9);
  });

  it('under mfaRequired a user with no method gets mfaSetupRequired, finished with the setup token', async () => {
    const username = await newUser();
    await admin.config.updateSettings({ mfaRequired: true });
    try {
      const client = clientFor();
      const outcome = await client.login(username, PASSWORD);
      if (outcome.kind !== 'mfaSetupRequired') throw new Error(`expected mfaSetupRequired, got ${outcome.kind}`);
      expect(outcome.methods).toContain('totp');
      expect(client.tokens).toBeUndefined();
      const setup = await client.mfa.setupTotp({ setupToken: outcome.setupToken });
      const done = await client.mfa.confirmTotp(totp(setup.secret), { setupToken: outcome.setupToken });
      expect(done.user?.username).toBe(username);
      expect(client.tokens?.accessToken).toBe(done.token);
      expect((await client.auth.me()).mfaEnabled).toBe(true);
    } finally {
      await admin.config.updateSettings({ mfaRequired: false });
    }
  });

  it('changes the password; a wrong current password is 403', async () => {
    const username = await newUser();
    const client = await signedIn(username, PASSWORD);
    expect(await refusal(client.auth.changePassword('not-the-password', 'another-password-2'))).toMatchObject({
      status: 403,
      code: 'FORBIDDEN',
    });
    await client.auth.changePassword(PASSWORD, 'another-password-2');
    await signedIn(username, 'another-password-2');
    expect(await client.auth.verifyResetToken('no-such-token')).toBe(false);
    await client.auth.requestPasswordReset(`${username}@example.com`);
  });
});

describe('the refresh rule: 401 only', () => {
  it('an expired access token is refreshed once and the call succeeds; onTokens sees the rotation', async () => {
    const username = await newUser();
    const r = recorder();
    const seen: Array<ClientTokens | undefined> = [];
    const client = await signedIn(username, PASSWORD, { fetch: r.fetch, onTokens: (tokens) => void seen.push(tokens) });
    const first = client.tokens!;
    tick(SIXTEEN_MINUTES);

    expect((await client.auth.me()).username).toBe(username);
    expect(r.count('POST /api/auth/refresh')).toBe(1);
    expect(r.count('GET /api/auth/me')).toBe(2);
    expect(client.tokens!.refreshToken).not.toBe(first.refreshToken);
    expect(seen).toEqual([first, client.tokens]);
  });

  it('concurrent 401s share one refresh', async () => {
    const username = await newUser();
    const r = recorder();
    const client = await signedIn(username, PASSWORD, { fetch: r.fetch });
    tick(SIXTEEN_MINUTES);
    const [me, status, page] = await Promise.all([
      client.auth.me(),
      client.mfa.status(),
      client.documents('post').list({ limit: 1 }),
      client.config.studio(),
    ]);
    expect(me.username).toBe(username);
    expect(status.methods).toEqual([]);
    expect(page.meta.limit).toBe(1);
    expect(r.count('POST /api/auth/refresh')).toBe(1);
  });

  it('a 403 is the typed FORBIDDEN error and never triggers a refresh', async () => {
    const username = await newUser('viewer');
    const r = recorder();
    const viewer = await signedIn(username, PASSWORD, { fetch: r.fetch });
    const err = await refusal(viewer.users.create({ username: 'nope', email: 'nope@example.com', password: PASSWORD }));
    expect(err).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(err.message).toMatch(/^403 FORBIDDEN: /);
    expect(r.count('POST /api/auth/refresh')).toBe(0);
    expect(r.count('POST /api/users')).toBe(1);
  });

  it('a refused refresh surfaces the original 401 and forgets the tokens', async () => {
    const username = await newUser();
    const r = recorder();
    const seen: Array<ClientTokens | undefined> = [];
    const client = await signedIn(username, PASSWORD, { fetch: r.fetch, onTokens: (tokens) => void seen.push(tokens) });
    // Someone else spends the refresh token: presenting it again counts as reuse.
    const spent = await t.request({ method: 'POST', url: '/api/auth/refresh', payload: { refreshToken: client.tokens!.refreshToken } });
    expect(spent.statusCode).toBe(200);
    tick(SIXTEEN_MINUTES);

    const err = await refusal(client.mfa.status());
    expect(err).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(r.count('POST /api/auth/refresh')).toBe(1);
    expect(r.count('GET /api/auth/mfa/status')).toBe(1);
    expect(client.tokens).toBeUndefined();
    expect(seen.at(-1)).toBeUndefined();
  });

  it('a token without a refresh token (an API token) is not refreshed: its 401 stands', async () => {
    const { token, apiToken } = await admin.apiTokens.create({ name: 'short-lived', permissions: ['content:read'] });
    await admin.apiTokens.delete(apiToken.id);
    const r = recorder();
    const client = clientFor({ token, fetch: r.fetch });
    expect(await refusal(client.auth.validate())).toMatchObject({ status: 401 });
    expect(r.calls).toEqual(['POST /api/auth/validate']);
  });

  it('an upload with a token known to be expired refreshes first, then streams the file once', async () => {
    const username = await newUser();
    const r = recorder();
    const client = await signedIn(username, PASSWORD, { fetch: r.fetch });
    tick(SIXTEEN_MINUTES);
    const media = await client.uploadMedia(new Blob([await png(20, 10)], { type: 'image/png' }), { filename: 'fresh.png' });
    expect(media).toMatchObject({ mimeType: 'image/png', width: 20, originalFilename: 'fresh.png' });
    expect(r.calls.slice(1)).toEqual(['POST /api/auth/refresh', 'POST /api/media']);
  });
  it('an upload answered 401 (expiry not known to the client) refreshes and sends the file again, built anew', async () => {
    const username = await newUser();
    const { tokens } = await signedIn(username, PASSWORD);
    const r = recorder();
    const client = clientFor({ fetch: r.fetch, tokens: { ...tokens!, expiresAt: undefined } });
    tick(SIXTEEN_MINUTES);
    const image = await png(21, 11);
    const progress: number[] = [];
    const media = await client.uploadMedia(new Blob([image], { type: 'image/png' }), {
      filename: 'again.png',
      onProgress: (sent) => progress.push(sent),
    });
    expect(media).toMatchObject({ width: 21, size: image.length });
    expect(progress.at(-1)).toBeGreaterThan(image.length);
    expect(r.calls).toEqual(['POST /api/media', 'POST /api/auth/refresh', 'POST /api/media']);
  });
});

describe('users, API tokens, settings and the rest', () => {
  it('manages users', async () => {
    const created = await admin.users.create({ username: 'managed', email: 'Managed@Example.com', password: PASSWORD, role: 'author' });
    expect(created).toMatchObject({ username: 'managed', email: 'managed@example.com', role: 'author', active: true });
    expect((await admin.users.list({ search: 'managed' })).data.map((u) => u.id)).toEqual([created.id]);
    expect((await admin.users.get(created.id)).username).toBe('managed');
    expect((await admin.users.byUsername('managed')).id).toBe(created.id);
    expect((await admin.users.byEmail('managed@example.com')).id).toBe(created.id);
    expect(await admin.users.update(created.id, { firstName: 'Manu', lastName: 'Ged' })).toMatchObject({ name: 'Manu Ged' });
    const invited = await admin.users.invite({ username: 'invitee', email: 'invitee@example.com' });
    expect(invited.active).toBe(false);
    const duplicate = await refusal(admin.users.create({ username: 'managed', email: 'other@example.com', password: PASSWORD }));
    expect(duplicate).toMatchObject({ status: 409, code: 'CONFLICT' });
    await admin.users.delete(created.id);
    expect(await refusal(admin.users.get(created.id))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('creates, lists and revokes API tokens; the token works as a bearer', async () => {
    const { token, apiToken } = await admin.apiTokens.create({ name: 'reader', permissions: ['content:read'] });
    expect(token).toMatch(/^vlm_/);
    expect((await admin.apiTokens.list()).data.map((x) => x.id)).toContain(apiToken.id);
    const reader = clientFor({ token });
    expect(await reader.auth.validate()).toMatchObject({ kind: 'token', token: { id: apiToken.id }, permissions: ['content:read'] });
    expect((await reader.collections('post').list({ limit: 1 })).meta.limit).toBe(1);
    await admin.apiTokens.delete(apiToken.id);
    expect((await admin.apiTokens.list()).data.map((x) => x.id)).not.toContain(apiToken.id);
  });

  it('reads and writes settings; reads schemas, studio configuration, structure, audit, health and readiness', async () => {
    expect(await admin.config.settings()).toMatchObject({ mfaRequired: false, siteName: 'Vellum' });
    expect(await admin.config.updateSettings({ siteName: 'Client test' })).toMatchObject({ siteName: 'Client test' });
    expect((await admin.config.schemas()).map((s) => s.name)).toContain('post');
    expect((await admin.config.studio()).siteName).toBe('Client test');
    expect((await admin.config.structure())[0].items.map((i) => i.schema)).toContain('post');
    const audit = await admin.audit({ type: ['settingsUpdate'] });
    expect(audit.data[0]).toMatchObject({ type: 'settingsUpdate' });
    expect(await admin.health()).toEqual({ status: 'ok' });
    expect(await admin.ready()).toEqual({ status: 'ok', checks: { database: 'ok', storage: 'ok' } });
    expect(await admin.passkeys.status()).toMatchObject({ enabled: false });
    expect(await admin.identityProvider.status()).toMatchObject({ enabled: false });
  });
});

describe('the typed error', () => {
  it('422 VALIDATION_ERROR carries details per field', async () => {
    const err = await refusal(admin.documents<Post>('post').create({ title: '', views: -1 }));
    expect(err).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect(err.details?.map((d) => d.field)).toEqual(expect.arrayContaining(['title', 'views']));
    expect(err.error.details).toEqual(err.details);
  });

  it('404 NOT_FOUND', async () => {
    expect(await refusal(admin.documents('post').get('no-such-id'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await refusal(admin.getMedia('no-such-id'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('429 RATE_LIMITED carries retryAfter; a failed login triggers no refresh', async () => {
    const limited = await startTestApp({ security: { rateLimit: { login: { windowMs: 60_000, max: 2 } } } });
    try {
      await limited.app.server.listen({ port: 0, host: '127.0.0.1' });
      const r = recorder();
      const client = new VellumClient({
        baseUrl: `http://127.0.0.1:${(limited.app.server.server.address() as AddressInfo).port}/api`,
        fetch: r.fetch,
      });
      for (let i = 0; i < 2; i++)
        expect(await refusal(client.login(ADMIN.username, 'wrong-password'))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      const err = await refusal(client.login(ADMIN.username, 'wrong-password'));
      expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(err.retryAfter).toBeGreaterThan(0);
      expect(err.retryAfter).toBeLessThanOrEqual(60);
      expect(r.count('POST /api/auth/refresh')).toBe(0);
    } finally {
      await limited.close();
    }
  });
});
