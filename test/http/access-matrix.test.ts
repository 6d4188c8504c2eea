import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';

/**
 * Who may do what to documents of the schema `post`, on both mounts, as one auditable table.
 *
 * Sources: spec (Roles, Permissions, States: Document publication, Endpoints: Documents) and
 * docs/api.md, "Permissions" and "Documents":
 * - `/documents`: anonymous reads see published documents only (a draft reads as 404); every write
 *   needs authentication (401) and the permission (403). Revisions hold drafts, so listing them
 *   needs read permission; an anonymous caller is asked to authenticate (401).
 * - `/collections`: every call, reads included, needs the permission (anonymous 401, others 403).
 * - A write that moves a document to or from `published` needs publish besides write; editing a
 *   published document in place changes public content and counts as a write from `published`.
 * - DELETE needs delete. Admin holds everything. Restore needs write.
 * - `<schema>:<action>`, `<schema>:*`, `content:*`, `content:<action>` all grant the action.
 * - A preview token (docs/preview.md) reads every status of the types its issuer could read, and
 *   nothing else: every write 403, revisions 403 (a preview shows current versions, not history).
 */

type Mount = 'documents' | 'collections';

/** A list cell says what the caller sees: every status, or published documents only. */
const ALL = 'all';
const PUB = 'published only';
type Cell = number | typeof ALL | typeof PUB;

// ── Callers ─────────────────────────────────────────────────────────────────────────────────────
// Users by role (no explicit permissions), and API tokens created by admin with these permissions.
const USER_ROLES = ['editor', 'author', 'writer', 'viewer', 'api'] as const;
const TOKEN_PERMISSIONS: Record<string, string[]> = {
  'token[post:read]': ['post:read'],
  'token[post:*]': ['post:*'],
  'token[content:*]': ['content:*'],
  'token[content:read]': ['content:read'],
  'token[content:write]': ['content:write'],
  'token[post:write+post:publish]': ['post:write', 'post:publish'],
  'token[author:read]': ['author:read'],
};
/** A preview token issued by admin (`POST …/preview`): read on every type, nothing else. */
const PREVIEW = 'preview';

// ── Actions ─────────────────────────────────────────────────────────────────────────────────────
// Each cell starts from fresh fixtures created by admin: a published and a draft post (the draft
// edited once, so it has two revisions), all tagged with a marker unique to the cell.
interface Fixtures {
  marker: string;
  published: Doc;
  draft: Doc;
}
interface Doc {
  _id: string;
  _rev: number;
  _status: string;
  title: string;
  [k: string]: unknown;
}
interface Action {
  label: string;
  request(base: string, f: Fixtures): { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: Record<string, unknown> };
  /** Checks the effect of an allowed call (the status is checked already). */
  effect?(res: LightMyRequestResponse, f: Fixtures): Promise<void> | void;
}

const ACTIONS = {
  list: {
    label: 'GET list',
    request: (base, f) => ({ method: 'GET', url: `${base}?filter[tags]=${f.marker}` }),
  },
  getPublished: {
    label: 'GET published by id',
    request: (base, f) => ({ method: 'GET', url: `${base}/${f.published._id}` }),
    effect: (res, f) => expect(res.json().data._id).toBe(f.published._id),
  },
  getDraft: {
    label: 'GET draft by id',
    request: (base, f) => ({ method: 'GET', url: `${base}/${f.draft._id}` }),
    effect: (res, f) => expect(res.json().data._id).toBe(f.draft._id),
  },
  createDraft: {
    label: 'POST draft',
    request: (base, f) => ({ method: 'POST', url: base, payload: { title: `new ${f.marker}`, tags: [f.marker] } }),
    effect: (res) => expect(res.json().data._status).toBe('draft'),
  },
  createPublished: {
    label: 'POST published',
    request: (base, f) => ({ method: 'POST', url: base, payload: { title: `new ${f.marker}`, tags: [f.marker], _status: 'published' } }),
    effect: (res) => expect(res.json().data._status).toBe('published'),
  },
  updateDraft: {
    label: 'PATCH draft',
    request: (base, f) => ({ method: 'PATCH', url: `${base}/${f.draft._id}`, payload: { title: `changed ${f.marker}` } }),
    effect: (res) => expect(res.json().data).toMatchObject({ _status: 'draft', title: expect.stringMatching(/^changed /) }),
  },
  publish: {
    label: 'PATCH publish',
    request: (base, f) => ({ method: 'PATCH', url: `${base}/${f.draft._id}`, payload: { _status: 'published' } }),
    effect: (res) => expect(res.json().data._status).toBe('published'),
  },
  unpublish: {
    label: 'PATCH unpublish',
    request: (base, f) => ({ method: 'PATCH', url: `${base}/${f.published._id}`, payload: { _status: 'draft' } }),
    effect: (res) => expect(res.json().data._status).toBe('draft'),
  },
  editPublished: {
    label: 'PATCH published in place',
    request: (base, f) => ({ method: 'PATCH', url: `${base}/${f.published._id}`, payload: { title: `changed ${f.marker}` } }),
    effect: (res) => expect(res.json().data).toMatchObject({ _status: 'published', title: expect.stringMatching(/^changed /) }),
  },
  delete: {
    label: 'DELETE',
    request: (base, f) => ({ method: 'DELETE', url: `${base}/${f.draft._id}` }),
    effect: async (res, f) => {
      expect(res.json()).toEqual({ success: true });
      expect((await asAdmin('GET', `/api/documents/post/${f.draft._id}`)).statusCode).toBe(404);
    },
  },
  revisions: {
    label: 'GET revisions',
    request: (base, f) => ({ method: 'GET', url: `${base}/${f.draft._id}/revisions` }),
    effect: (res) => expect(res.json().data.map((r: { _rev: number }) => r._rev)).toEqual([2, 1]),
  },
  restore: {
    label: 'POST restore revision',
    request: (base, f) => ({ method: 'POST', url: `${base}/${f.draft._id}/revisions/1/restore` }),
    effect: (res, f) => expect(res.json().data).toMatchObject({ _rev: 3, _status: 'draft', title: `draft ${f.marker}` }),
  },
} satisfies Record<string, Action>;

type ActionName = keyof typeof ACTIONS;
const COLUMNS: ActionName[] = [
  'list',
  'getPublished',
  'getDraft',
  'createDraft',
  'createPublished',
  'updateDraft',
  'publish',
  'unpublish',
  'editPublished',
  'delete',
  'revisions',
  'restore',
];

// ── The expectation table ───────────────────────────────────────────────────────────────────────
// Permissions on `post` each caller holds: R read, W write, P publish, D delete.
//                                     list  getPub getDraft POSTdr POSTpub PATCHdr publish unpub editPub DELETE revs restore
const DOCUMENTS: Record<string, Cell[]> = {
  anonymous: [PUB, 200, 404, 401, 401, 401, 401, 401, 401, 401, 401, 401],
  admin: [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 200, 200, 200],
  editor: [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 200, 200, 200], // RWPD
  author: [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 403, 200, 200], // RWP
  writer: [ALL, 200, 200, 201, 403, 200, 403, 403, 403, 403, 200, 200], // RW
  viewer: [ALL, 200, 200, 403, 403, 403, 403, 403, 403, 403, 200, 403], // R
  api: [PUB, 200, 404, 403, 403, 403, 403, 403, 403, 403, 403, 403], // –
  'token[post:read]': [ALL, 200, 200, 403, 403, 403, 403, 403, 403, 403, 200, 403], // R
  'token[post:*]': [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 200, 200, 200], // RWPD
  'token[content:*]': [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 200, 200, 200], // RWPD
  'token[content:read]': [ALL, 200, 200, 403, 403, 403, 403, 403, 403, 403, 200, 403], // R
  'token[content:write]': [PUB, 200, 404, 201, 403, 200, 403, 403, 403, 403, 403, 200], // W
  'token[post:write+post:publish]': [PUB, 200, 404, 201, 201, 200, 200, 200, 200, 403, 403, 200], // WP
  'token[author:read]': [PUB, 200, 404, 403, 403, 403, 403, 403, 403, 403, 403, 403], // –
  [PREVIEW]: [ALL, 200, 200, 403, 403, 403, 403, 403, 403, 403, 403, 403], // R, no history
};

//                                     list  getPub getDraft POSTdr POSTpub PATCHdr publish unpub editPub DELETE revs restore
const COLLECTIONS: Record<string, Cell[]> = {
  anonymous: [401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 401],
  admin: [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 200, 200, 200],
  editor: [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 200, 200, 200], // RWPD
  author: [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 403, 200, 200], // RWP
  writer: [ALL, 200, 200, 201, 403, 200, 403, 403, 403, 403, 200, 200], // RW
  viewer: [ALL, 200, 200, 403, 403, 403, 403, 403, 403, 403, 200, 403], // R
  api: [403, 403, 403, 403, 403, 403, 403, 403, 403, 403, 403, 403], // –
  'token[post:read]': [ALL, 200, 200, 403, 403, 403, 403, 403, 403, 403, 200, 403], // R
  'token[post:*]': [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 200, 200, 200], // RWPD
  'token[content:*]': [ALL, 200, 200, 201, 201, 200, 200, 200, 200, 200, 200, 200], // RWPD
  'token[content:read]': [ALL, 200, 200, 403, 403, 403, 403, 403, 403, 403, 200, 403], // R
  'token[content:write]': [403, 403, 403, 201, 403, 200, 403, 403, 403, 403, 403, 200], // W
  'token[post:write+post:publish]': [403, 403, 403, 201, 201, 200, 200, 200, 200, 403, 403, 200], // WP
  'token[author:read]': [403, 403, 403, 403, 403, 403, 403, 403, 403, 403, 403, 403], // –
  [PREVIEW]: [ALL, 200, 200, 403, 403, 403, 403, 403, 403, 403, 403, 403], // R, no history
};

const MATRIX: Record<Mount, Record<string, Cell[]>> = { documents: DOCUMENTS, collections: COLLECTIONS };

/** The code every error status must carry (spec: Errors). */
const ERROR_CODES: Record<number, string> = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

// ── Harness ─────────────────────────────────────────────────────────────────────────────────────
let t: TestApp;
let adminToken: string;
/** Caller name → bearer (undefined for anonymous). */
const bearers = new Map<string, string | undefined>();

beforeAll(async () => {
  t = await startTestApp({ schemas: TEST_SCHEMAS });
  adminToken = await t.login(ADMIN.username, ADMIN.password);
  bearers.set('anonymous', undefined);
  bearers.set('admin', adminToken);
  for (const role of USER_ROLES) bearers.set(role, await t.userToken(role));
  for (const [name, permissions] of Object.entries(TOKEN_PERMISSIONS)) {
    const res = await asAdmin('POST', '/api/tokens', { name, permissions });
    expect(res.statusCode, res.body).toBe(201);
    bearers.set(name, res.json().data.token);
  }
  const previewed = await createPost({ title: 'previewed' });
  const preview = await asAdmin('POST', `/api/documents/post/${previewed._id}/preview`);
  expect(preview.statusCode, preview.body).toBe(201);
  bearers.set(PREVIEW, preview.json().data.token);
});
afterAll(() => t?.close());

function asAdmin(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) {
  return t.request({ method, url, payload: payload as Record<string, unknown>, token: adminToken });
}

async function createPost(payload: Record<string, unknown>): Promise<Doc> {
  const res = await asAdmin('POST', '/api/documents/post', payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

async function fixtures(): Promise<Fixtures> {
  const marker = `m${randomBytes(6).toString('hex')}`;
  const published = await createPost({ title: `published ${marker}`, tags: [marker], _status: 'published' });
  const created = await createPost({ title: `draft ${marker}`, tags: [marker] });
  const edited = await asAdmin('PATCH', `/api/documents/post/${created._id}`, { title: `draft edited ${marker}` });
  expect(edited.statusCode, edited.body).toBe(200);
  return { marker, published, draft: edited.json().data };
}

/** What admin sees of the cell's documents: a denied call must leave this unchanged. */
async function snapshot(marker: string): Promise<string[]> {
  const res = await asAdmin('GET', `/api/documents/post?filter[tags]=${marker}&limit=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json()
    .data.map((d: Doc) => `${d._id} rev ${d._rev} ${d._status} ${d.title}`)
    .sort();
}

// ── One test per cell ───────────────────────────────────────────────────────────────────────────
for (const mount of ['documents', 'collections'] as const) {
  describe(`/${mount}/post`, () => {
    for (const [caller, row] of Object.entries(MATRIX[mount])) {
      COLUMNS.forEach((name, i) => {
        const cell = row[i];
        const status = typeof cell === 'number' ? cell : 200;
        const shown = typeof cell === 'number' ? `${cell}` : `200 (${cell})`;
        const action: Action = ACTIONS[name];

        it(`${caller} ${action.label} on /${mount} → ${shown}`, async () => {
          const f = await fixtures();
          const before = await snapshot(f.marker);
          const res = await t.request({ ...action.request(`/api/${mount}/post`, f), token: bearers.get(caller) });

          expect(res.statusCode, res.body).toBe(status);
          if (status >= 400) {
            expect(res.json()).toMatchObject({ error: { code: ERROR_CODES[status], message: expect.any(String) } });
            expect(await snapshot(f.marker), 'a refused call changes nothing').toEqual(before);
            return;
          }
          if (typeof cell === 'string') {
            const ids = res
              .json()
              .data.map((d: Doc) => d._id)
              .sort();
            expect(ids).toEqual((cell === ALL ? [f.published._id, f.draft._id] : [f.published._id]).sort());
          }
          await action.effect?.(res, f);
        });
      });
    }
  });
}

// ── A schema closed to anonymous readers (`public: false`) ──────────────────────────────────────
describe('/documents/secret (public: false)', () => {
  const cases: Array<{ caller: string; method: 'GET'; path: (id: string) => string; status: number }> = [
    { caller: 'anonymous', method: 'GET', path: () => '/api/documents/secret', status: 404 },
    { caller: 'anonymous', method: 'GET', path: (id) => `/api/documents/secret/${id}`, status: 404 },
    { caller: 'anonymous', method: 'GET', path: () => '/api/collections/secret', status: 401 },
    { caller: 'api', method: 'GET', path: () => '/api/documents/secret', status: 403 },
    { caller: 'token[author:read]', method: 'GET', path: () => '/api/documents/secret', status: 403 },
    { caller: 'viewer', method: 'GET', path: () => '/api/documents/secret', status: 200 },
    { caller: 'viewer', method: 'GET', path: (id) => `/api/documents/secret/${id}`, status: 200 },
    { caller: 'token[content:read]', method: 'GET', path: () => '/api/documents/secret', status: 200 },
  ];
  for (const c of cases) {
    it(`${c.caller} ${c.method} ${c.path(':id')} → ${c.status}`, async () => {
      const created = await asAdmin('POST', '/api/documents/secret', { code: 'x', _status: 'published' });
      expect(created.statusCode, created.body).toBe(201);
      const res = await t.request({ method: c.method, url: c.path(created.json().data._id), token: bearers.get(c.caller) });
      expect(res.statusCode, res.body).toBe(c.status);
      if (c.status >= 400) expect(res.json().error.code).toBe(ERROR_CODES[c.status]);
    });
  }
});

describe('the table itself', () => {
  it('has a cell for every caller and action on both mounts', () => {
    const callers = ['anonymous', 'admin', ...USER_ROLES, ...Object.keys(TOKEN_PERMISSIONS), PREVIEW];
    for (const table of Object.values(MATRIX)) {
      expect(Object.keys(table).sort()).toEqual([...callers].sort());
      for (const row of Object.values(table)) expect(row).toHaveLength(COLUMNS.length);
    }
  });
});
