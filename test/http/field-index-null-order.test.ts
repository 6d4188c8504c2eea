import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { ADMIN } from '../helpers/app.js';
import { dialect, withTestDatabase } from '../helpers/database.js';

const SCHEMAS = [{ name: 'post', title: 'Post', fields: [{ name: 'price', type: 'number', indexed: true }] }];
const config = (url: string) => resolveConfig({ database: { url }, security: { bcryptRounds: 4, adminUser: ADMIN }, schemas: SCHEMAS }, {});

async function indexDefinition(app: App, name: string): Promise<string> {
  const { db } = app.services.database;
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ def: string }>`select pg_get_indexdef(${name}::regclass) as def`.execute(db)
      : await sql<{ def: string }>`select sql as def from sqlite_master where type = 'index' and name = ${name}`.execute(db);
  return rows[0]?.def ?? '(missing)';
}

describe('field index null order (migration 015)', () => {
  it('puts absent values where ordered lists do, and rebuilds indexes made before in the old order', async () => {
    await withTestDatabase(async (db) => {
      const first = await createApp(config(db.url));
      let current: string;
      let old: string;
      try {
        current = await indexDefinition(first, 'vx_post_price');
        if (dialect === 'postgres') expect(current).toContain("((data -> 'price'::text)) NULLS FIRST, seq)");
        // The database as a release before migration 015 left it: the index in the old order, 015 not run.
        const { db: kysely, dialect: d } = first.services.database;
        await sql`drop index vx_post_price`.execute(kysely);
        await sql
          .raw(`create index vx_post_price on documents (type, ${d.indexExpression(['price'])}${d.indexesHoldSeq ? '' : ', seq'})`)
          .execute(kysely);
        // Migrations are applied in order: 016 to 019 and what they made go too, and run again after 015.
        await sql`delete from kysely_migration where name in ('015-field-index-null-order', '016-document-drafts', '017-schedules', '018-media-transforms', '019-user-preferences')`.execute(
          kysely,
        );
        await sql`alter table users drop column preferences`.execute(kysely);
        await sql`alter table media drop column focal_x`.execute(kysely);
        await sql`alter table media drop column focal_y`.execute(kysely);
        const tables = [
          'media_transforms',
          'schedules',
          'document_draft_refs',
          'document_draft_media',
          'document_drafts',
          ...(dialect === 'postgres' ? [] : ['document_drafts_fts']),
        ];
        for (const table of tables) await sql`drop table ${sql.table(table)}`.execute(kysely);
        if (dialect === 'postgres') {
          // SQLite's 016 copies the revisions into their new shape again; PostgreSQL's alters them in place.
          await sql`alter table document_revisions drop constraint document_revisions_pk`.execute(kysely);
          await sql`alter table document_revisions drop column kind`.execute(kysely);
          await sql`alter table document_revisions add constraint document_revisions_pk primary key (doc_id, rev)`.execute(kysely);
        }
        old = await indexDefinition(first, 'vx_post_price');
      } finally {
        await first.close();
      }
      // PostgreSQL's default puts nulls last ascending; SQLite's index needs no clause and stays as it was.
      if (dialect === 'postgres') expect(old).not.toMatch(/NULLS FIRST/);
      const second = await createApp(config(db.url));
      try {
        expect(await indexDefinition(second, 'vx_post_price')).toBe(current);
      } finally {
        await second.close();
      }
    });
  });
});
