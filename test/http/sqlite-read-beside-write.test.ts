import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../helpers/app.js';
import { dialect } from '../helpers/database.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { inTransaction, type Conn } from '../../packages/server/src/storage/connection.js';
import type { Database } from '../../packages/server/src/storage/database.js';
import { findDocument } from '../../packages/server/src/storage/documents/document-rows.js';
import { insertDocument } from '../../packages/server/src/storage/documents/document-writes.js';
import { getInstanceValue, setInstanceValue } from '../../packages/server/src/storage/settings/instance-store.js';

/**
 * Reads never wait for a write transaction (docs/architecture.md, "Storage"): while one is open,
 * a read outside it answers at once with the last committed state, and a write outside it is
 * committed on its own, never in (or rolled back with) the open one. SQLite gets this from a
 * reader connection beside the writer, PostgreSQL from its pool.
 */

let t: TestApp;
let admin: string;
let database: Database;

beforeAll(async () => {
  t = await startTestApp({ documents: { responseCache: false }, schemas: TEST_SCHEMAS });
  admin = await t.login(ADMIN.username, ADMIN.password);
  database = t.app.services.database;
});
afterAll(() => t?.close());

interface HeldTransaction {
  /** Settles once the transaction has made its write. */
  wrote: Promise<void>;
  /** Settles once the transaction has committed or rolled back. */
  done: Promise<void>;
  /** True until `done` settles. */
  open(): boolean;
  /** Lets the transaction go on: to its commit, or to a throw that rolls it back. */
  release(outcome: 'commit' | 'fail'): void;
}

/** A transaction of `inTransaction` that makes `write`, then stays open until released. */
function holdTransaction(write: (conn: Conn) => Promise<void>): HeldTransaction {
  let wrote!: () => void;
  let release!: (outcome: 'commit' | 'fail') => void;
  const written = new Promise<void>((resolve) => (wrote = resolve));
  const gate = new Promise<'commit' | 'fail'>((resolve) => (release = resolve));
  let open = true;
  const done = inTransaction(database, async (conn) => {
    await write(conn);
    wrote();
    if ((await gate) === 'fail') throw new Error('the held transaction fails');
  }).finally(() => (open = false));
  // A write that throws never reaches `wrote`: the test hears of it instead of waiting forever.
  return { wrote: Promise.race([written, done]), done, open: () => open, release };
}

describe('reads beside an open write transaction', () => {
  it('a read outside the transaction answers while it is open, without its uncommitted row; after the commit it sees it', async () => {
    const held = holdTransaction((conn) => setInstanceValue(conn, 'held-commit', 'uncommitted'));
    try {
      await held.wrote;
      expect(await getInstanceValue(database, 'held-commit')).toBeUndefined();
      expect(held.open()).toBe(true);
    } finally {
      held.release('commit');
    }
    await held.done;
    expect(await getInstanceValue(database, 'held-commit')).toBe('uncommitted');
  });

  it('a write outside the transaction is committed on its own: the held transaction failing does not roll it back', async () => {
    const held = holdTransaction((conn) => setInstanceValue(conn, 'held-fail', 'rolled back'));
    let outside: Promise<void> | undefined;
    let outsideDone = false;
    try {
      await held.wrote;
      outside = setInstanceValue(database, 'outside-write', 'committed').finally(() => (outsideDone = true));
      // SQLite has one writer: the outside write waits for the held transaction instead of joining it.
      await new Promise((resolve) => setImmediate(resolve));
      if (dialect === 'sqlite') expect(outsideDone).toBe(false);
    } finally {
      held.release('fail');
    }
    await expect(held.done).rejects.toThrow('the held transaction fails');
    await outside;
    expect(await getInstanceValue(database, 'outside-write')).toBe('committed');
    expect(await getInstanceValue(database, 'held-fail')).toBeUndefined();
  });

  it('GET of a list answers while a write transaction is open, without the document it has not committed', async () => {
    const created = await t.request({ method: 'POST', url: '/api/documents/post', token: admin, payload: { title: 'Committed post' } });
    expect(created.statusCode, created.body).toBe(201);
    const stored = await findDocument(database, created.json().data._id);
    const heldBack = { ...stored!, id: randomUUID(), data: { title: 'Held back post', featured: false } };
    const held = holdTransaction((conn) => insertDocument(conn, heldBack, { refs: [], media: [], searchText: 'held back post' }));
    const titles = async () => {
      const res = await t.request({ method: 'GET', url: '/api/documents/post', token: admin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.map((d: { title: string }) => d.title);
    };
    try {
      await held.wrote;
      expect(await titles()).toEqual(['Committed post']);
      expect(held.open()).toBe(true);
    } finally {
      held.release('commit');
    }
    await held.done;
    expect((await titles()).sort()).toEqual(['Committed post', 'Held back post']);
  });
});
