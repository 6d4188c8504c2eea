import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type TestDialect = 'sqlite' | 'postgres';

export const dialect = (process.env.VELLUM_TEST_DIALECT ?? 'sqlite') as TestDialect;
/** The PostgreSQL server the suites use; each test file gets a database of its own on it. */
export const PG_ADMIN_URL = process.env.VELLUM_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database for one test file: a temp SQLite file, or a new PostgreSQL database. */
export async function createTestDatabase(on: TestDialect = dialect): Promise<TestDatabase> {
  if (on === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-test-'));
    return { url: `sqlite:${join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `vellum_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** Runs `fn` with a fresh database and drops it afterwards, whatever happens. */
export async function withTestDatabase<T>(fn: (db: TestDatabase) => Promise<T>, on: TestDialect = dialect): Promise<T> {
  const db = await createTestDatabase(on);
  try {
    return await fn(db);
  } finally {
    await db.drop();
  }
}
