import pg from 'pg';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createApp, resolveConfig } from '../../packages/server/src/index.js';
import { PG_ADMIN_URL, withTestDatabase } from '../helpers/database.js';
import { openDatabase } from '../../packages/server/src/storage/database.js';
import { isAppError } from '../../packages/server/src/errors.js';
import { ADMIN } from '../helpers/app.js';

/** PostgreSQL-only by nature: what happens when the database drops the service's connections. */
describe('PostgreSQL connection loss', () => {
  it('terminated backends fail the queries in flight but never the process; the pool reconnects', async () => {
    const name = `vellum_t_loss_${Date.now()}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    const app = await createApp(resolveConfig({ database: { url: url.toString() }, security: { bcryptRounds: 4, adminUser: ADMIN } }, {}));
    try {
      const load = Array.from({ length: 200 }, () => app.server.inject({ method: 'GET', url: '/api/ready' }));
      const killed = await admin.query<{ pid: number }>(
        'select pid, pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      const results = await Promise.all(load);
      // pg_terminate_backend only signals: each backend then says FATAL on its socket and exits.
      // "The next requests" below are the ones after that, once the pool has heard of every
      // termination (on a loaded machine a backend could still be dying, its client still idle).
      const pids = killed.rows.map((r) => r.pid);
      for (let i = 0; i < 500; i++) {
        const alive = await admin.query('select 1 from pg_stat_activity where pid = any($1::int[])', [pids]);
        if (alive.rowCount === 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise((r) => setImmediate(r));
      expect(results.every((r) => r.statusCode === 200 || r.statusCode === 503 || r.statusCode === 500)).toBe(true);
      // The next requests get fresh connections.
      let ok = 0;
      for (let i = 0; i < 20; i++) if ((await app.server.inject({ method: 'GET', url: '/api/ready' })).statusCode === 200) ok++;
      expect(ok).toBeGreaterThanOrEqual(19);
      const login = await app.server.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: ADMIN.username, password: ADMIN.password },
      });
      expect(login.statusCode).toBe(200);
    } finally {
      await app.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  it('a statement past statementTimeoutMs is cancelled by PostgreSQL: 503 SERVICE_UNAVAILABLE, and the connection serves the next query', () =>
    withTestDatabase(async (tdb) => {
      const database = await openDatabase(tdb.url, { statementTimeoutMs: 200 });
      try {
        const err = await sql`select pg_sleep(5)`.execute(database.db).catch((e: unknown) => e);
        expect(isAppError(err) && err.code).toBe('SERVICE_UNAVAILABLE');
        expect((err as Error).cause).toMatchObject({ code: '57014' });
        const again = await sql<{ one: number }>`select 1 as one`.execute(database.db);
        expect(again.rows).toEqual([{ one: 1 }]);
      } finally {
        await database.close();
      }
    }, 'postgres'));
});
