import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { sqlitePath } from '../../packages/server/src/storage/database.js';
import type { TestDialect } from './database.js';

/** How many authors the seeded posts point at (`seed-author-0` …). */
export const SEED_AUTHORS = 20;

/** The id of the i-th seeded post (1-based). */
export const seedPostId = (i: number) => `seed-post-${i}`;

/**
 * Writes `posts` documents of type `post` (and SEED_AUTHORS of type `author`) straight into the
 * `documents` table of a database the app has already migrated, in one statement, then refreshes
 * the planner's statistics. The API would take minutes for a million rows; the query plan tests
 * only need rows shaped like the API's.
 *
 * Post i: status published (6 in 10), draft (3 in 10) or archived; created one second after
 * post i-1, updated at a scattered later time; `category` cycles; `price` is spread over
 * 0–999.99 and absent on every 50th post; `author` is one of the seeded authors. No search text
 * and no reference rows are written: the paths these rows serve read neither.
 */
export async function seedDocumentsBySql(on: TestDialect, url: string, posts: number): Promise<void> {
  if (on === 'postgres') await seedPostgres(url, posts);
  else seedSqlite(url, posts);
}

async function seedPostgres(url: string, posts: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set maintenance_work_mem = '256MB'`);
    await client.query('set synchronous_commit = off');
    // Building an index over the loaded rows takes a fraction of updating it row by row, so the
    // secondary indexes go first and come back afterwards with their own definitions.
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as definition from pg_index
       where indrelid = 'documents'::regclass and not exists (select 1 from pg_constraint where conindid = indexrelid)`,
    );
    for (const index of indexes) await client.query(`drop index ${index.name}`);
    const at = (seconds: string) => `to_char(timestamp '2020-01-01' + (${seconds}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    await client.query(
      `insert into documents (id, type, status, rev, created_at, updated_at, data)
       select 'seed-author-' || i, 'author', 'published', 1, ${at('i')}, ${at('i')}, jsonb_build_object('name', 'Author ' || i)
       from generate_series(0, $1::int - 1) i`,
      [SEED_AUTHORS],
    );
    await client.query(
      `insert into documents (id, type, status, rev, created_at, updated_at, data)
       select 'seed-post-' || i, 'post',
         case when i % 10 < 6 then 'published' when i % 10 < 9 then 'draft' else 'archived' end,
         1, ${at('3600 + i')}, ${at('3600 + i + (i * 7919) % $1::bigint')},
         jsonb_strip_nulls(jsonb_build_object(
           'title', 'Seeded post ' || i,
           'category', (array['news', 'guide', 'opinion'])[1 + i % 3],
           'price', case when i % 50 = 0 then null else round(((i * 7919) % 100000) / 100.0, 2) end,
           'author', 'seed-author-' || (i % $2::int)))
       from generate_series(1, $1::bigint) i`,
      [posts, SEED_AUTHORS],
    );
    for (const index of indexes) await client.query(index.definition);
    // Statistics, and the visibility map that index-only scans need: autovacuum's work, done now.
    await client.query('vacuum analyze documents');
  } finally {
    await client.end();
  }
}

function seedSqlite(url: string, posts: number): void {
  const db = new BetterSqlite3(sqlitePath(url));
  // Written into the text: better-sqlite3 binds a JS number as a REAL, which would make the ids `seed-author-3.0`.
  const [n, authors] = [Math.trunc(posts), SEED_AUTHORS];
  try {
    const at = (seconds: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', 1577836800 + (${seconds}), 'unixepoch')`;
    db.transaction(() => {
      db.prepare(
        `with recursive s(i) as (select 0 union all select i + 1 from s where i < ${authors} - 1)
         insert into documents (id, type, status, rev, created_at, updated_at, data)
         select 'seed-author-' || i, 'author', 'published', 1, ${at('i')}, ${at('i')}, json_object('name', 'Author ' || i) from s`,
      ).run();
      // json_patch drops members whose value is null: the absent price of every 50th post.
      db.prepare(
        `with recursive s(i) as (select 1 union all select i + 1 from s where i < ${n})
         insert into documents (id, type, status, rev, created_at, updated_at, data)
         select 'seed-post-' || i, 'post',
           case when i % 10 < 6 then 'published' when i % 10 < 9 then 'draft' else 'archived' end,
           1, ${at('3600 + i')}, ${at(`3600 + i + (i * 7919) % ${n}`)},
           json_patch('{}', json_object(
             'title', 'Seeded post ' || i,
             'category', case i % 3 when 0 then 'news' when 1 then 'guide' else 'opinion' end,
             'price', case when i % 50 = 0 then null else round(((i * 7919) % 100000) / 100.0, 2) end,
             'author', 'seed-author-' || (i % ${authors})))
         from s`,
      ).run();
    })();
    db.exec('analyze');
  } finally {
    db.close();
  }
}
