import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { describe, it } from 'vitest';
import { sqlitePath } from '../../packages/server/src/storage/database.js';
import type { TestApp } from '../helpers/app.js';
import { dialect } from '../helpers/database.js';
import type { PlanReader } from '../helpers/explain-plan.js';
import { planExpectations } from '../helpers/plan-expectations.js';
import { useSeededPlanApp } from '../helpers/use-seeded-plan-app.js';

/**
 * Querying localized fields through a locale's chain stays an index read (docs/localization.md,
 * "Storage"): each locale but the default has an index on the value its chain serves
 * (`vl_<type>_<field>_<locale>`), which filters and order in that locale walk, as the default
 * locale's queries walk the field's own index. The seeded posts hold their default-locale
 * values as any post does; seven in ten get German values, every third of those a Swiss one.
 */
const POSTS = dialect === 'postgres' ? 100_000 : 50_000;
const LOCALES = [{ code: 'en' }, { code: 'de', fallback: 'en' }, { code: 'de-CH', fallback: 'de' }];
const SCHEMAS = [
  { name: 'author', title: 'Author', fields: [{ name: 'name', type: 'string', required: true }] },
  {
    name: 'post',
    title: 'Post',
    fields: [
      { name: 'title', type: 'string', required: true, localized: true, indexed: true },
      { name: 'category', type: 'select', options: ['news', 'guide', 'opinion'] },
      { name: 'price', type: 'number', indexed: true, localized: true },
      { name: 'author', type: 'reference', to: 'author' },
    ],
  },
];

/** German values for 7 in 10 posts, Swiss ones for every third of those: the chain's places all occur. */
async function seedLocales(url: string): Promise<void> {
  const de = `'title', 'Beitrag ' || n, 'price', round(((n * 7919) % 50000) / 100.0, 2)`;
  const ch = `'title', 'Bitrag ' || n`;
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`update documents set data = data || jsonb_build_object('_locales', case when n % 3 = 0
          then jsonb_build_object('de', jsonb_build_object(${de}), 'de-CH', jsonb_build_object(${ch}))
          else jsonb_build_object('de', jsonb_build_object(${de})) end)
        from (select id as sid, substr(id, 11)::int as n from documents where type = 'post') s
        where id = sid and n % 10 < 7`);
      await client.query('vacuum analyze documents');
    } finally {
      await client.end();
    }
    return;
  }
  const db = new BetterSqlite3(sqlitePath(url));
  try {
    db.prepare(
      `update documents set data = json_set(data, '$._locales', case when n % 3 = 0
          then json_object('de', json_object(${de}), 'de-CH', json_object(${ch}))
          else json_object('de', json_object(${de})) end)
        from (select id as sid, cast(substr(id, 11) as integer) as n from documents where type = 'post') s
        where id = sid and n % 10 < 7`,
    ).run();
    db.exec('analyze');
  } finally {
    db.close();
  }
}

let t: TestApp;
let admin: string;
let plans: PlanReader;

useSeededPlanApp(SCHEMAS, POSTS, (app, token, reader) => ((t = app), (admin = token), (plans = reader)), {
  config: { locales: LOCALES },
  seed: seedLocales,
});

const { expectPlans } = planExpectations(() => ({ t, admin, plans }));

describe('localized fields through the chain', () => {
  it('a list in de-CH ordered by a localized field walks that locale’s chain index, both ways', async () => {
    await expectPlans('/api/documents/post?locale=de-CH&orderBy=price', [{ uses: ['vl_post_price_de_ch'] }]);
    await expectPlans('/api/documents/post?locale=de-CH&orderBy=title&order=asc', [{ uses: ['vl_post_title_de_ch'] }]);
  });

  it('a range in de ordered by the field is one range of the de chain index', async () => {
    await expectPlans('/api/documents/post?locale=de&filter[price][gt]=490&orderBy=price', [{ uses: ['vl_post_price_de'] }]);
  });

  it('equality in de-CH seeks the chain index and sorts only the matches', async () => {
    await expectPlans('/api/documents/post?locale=de-CH&filter[title]=Bitrag%2030', [{ uses: ['vl_post_title_de_ch'], sorts: 1 }]);
  });

  it('the default locale’s queries still walk the field’s own index', async () => {
    await expectPlans('/api/documents/post?orderBy=price', [{ uses: ['vx_post_price'] }]);
    await expectPlans('/api/documents/post?locale=en&filter[price][lte]=5&orderBy=price&order=asc', [{ uses: ['vx_post_price'] }]);
  });
});
