import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll } from 'vitest';
import { openDatabase, type Database } from '../../packages/server/src/storage/database.js';

/**
 * SQLite databases in a folder of their own, removed after the file's tests: `withDatabase(name,
 * fn)` opens one (with a table `t (x integer)`), runs `fn` with it and its file, and closes it.
 */
export function scratchDatabases(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return async (name: string, fn: (database: Database, file: string) => Promise<void>, busyTimeoutMs = 5_000) => {
    const file = join(dir, name);
    const database = await openDatabase(`sqlite:${file}`, { busyTimeoutMs });
    try {
      await sql`create table t (x integer)`.execute(database.db);
      await fn(database, file);
    } finally {
      await database.close();
    }
  };
}

/**
 * Counts turns of the event loop until the returned function is called, which answers the count;
 * `then` runs on turn `at`.
 */
export function loopTurns(at?: number, then?: () => void) {
  let turns = 0;
  let running = true;
  const spin = () => {
    turns++;
    if (turns === at) then?.();
    if (running) setImmediate(spin);
  };
  setImmediate(spin);
  return () => ((running = false), turns);
}
