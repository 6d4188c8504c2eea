import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { inTransaction, type Conn } from '../connection.js';
import { assertSafePath } from '../dialect.js';
import { localizedIndexExpression } from './document-filter-sql.js';

export interface FieldIndexSpec {
  type: string;
  path: readonly string[];
  unique: boolean;
  /**
   * A localized field (docs/localization.md, "Storage"): per locale but the default, where its
   * own values sit (`own`, unique per locale) and the places a query in that locale reads in
   * order (`chain`, filters and order through the fallbacks). The default locale's values sit at
   * `path`, indexed as any field's.
   */
  locales?: ReadonlyArray<{ code: string; own: readonly string[]; chain: readonly (readonly string[])[] }>;
}

// vx_ order and filter, vu_ unique; vl_ and vlu_ the same per locale of a localized field.
const PREFIXES = ['vx_', 'vu_', 'vl_', 'vlu_'];

function indexName(prefix: string, type: string, path: readonly string[]): string {
  const name = `${prefix}${type}_${path.join('_')}`;
  // PostgreSQL cuts identifiers at 63 bytes; a hash keeps long names distinct.
  return name.length <= 60 ? name : `${prefix}${createHash('sha256').update(name).digest('hex').slice(0, 32)}`;
}

/**
 * Creates the per-field indexes the schemas ask for and drops the ones no schema asks for any
 * more. Every indexed field gets `(type, value, seq)` for filtering and ordering; a unique field
 * also gets a partial unique index (one per type), which is what really enforces uniqueness
 * when two writers race.
 */
export async function syncFieldIndexes(database: Conn, specs: readonly FieldIndexSpec[]): Promise<void> {
  // Nodes starting together take turns, so two never create the same index at once.
  await inTransaction(database, async (conn) => {
    await conn.dialect.lockSchema(conn.db);
    await syncLocked(conn, specs);
  });
}

async function syncLocked(conn: Conn, specs: readonly FieldIndexSpec[]): Promise<void> {
  const wanted = new Map<string, string>();
  for (const spec of specs) {
    assertSafePath(spec.path);
    if (!/^[A-Za-z0-9_]+$/.test(spec.type)) throw new Error(`unsafe type name ${spec.type}`);
    const expr = conn.dialect.indexExpression(spec.path);
    const seq = conn.dialect.indexesHoldSeq ? '' : ', seq';
    // Absent values sit where a list ordered by the field puts them (nullsOrder), so the index
    // reads out a page in either direction; in PostgreSQL's default place (last ascending) it
    // matched neither, and every ordered list sorted the whole type (migration 015).
    const ordered = `${expr}${conn.dialect.nullsOrder('asc')}`;
    wanted.set(indexName('vx_', spec.type, spec.path), `on documents (type, ${ordered}${seq})`);
    if (spec.unique) wanted.set(indexName('vu_', spec.type, spec.path), `on documents (${expr}) where type = '${spec.type}'`);
    for (const l of spec.locales ?? []) {
      // Index names are identifiers: `de-CH` becomes `de_ch` (language tags never hold `_`).
      const named = [...spec.path, l.code.toLowerCase().replace(/-/g, '_')];
      const chained = localizedIndexExpression(conn, l.chain, spec.path);
      wanted.set(indexName('vl_', spec.type, named), `on documents (type, ${chained}${conn.dialect.nullsOrder('asc')}${seq})`);
      if (spec.unique) {
        const own = conn.dialect.indexExpression([...l.own, ...spec.path]);
        wanted.set(indexName('vlu_', spec.type, named), `on documents (${own}) where type = '${spec.type}'`);
      }
    }
  }
  const existing = await existingIndexes(conn);
  for (const name of existing) {
    if (!wanted.has(name)) await sql.raw(`drop index if exists ${name}`).execute(conn.db);
  }
  for (const [name, body] of wanted) {
    if (existing.has(name)) continue;
    const unique = name.startsWith('vu_') || name.startsWith('vlu_') ? 'unique ' : '';
    try {
      await sql.raw(`create ${unique}index if not exists ${name} ${body}`).execute(conn.db);
    } catch (err) {
      if (conn.dialect.isUniqueViolation(err) || /unique|duplicate/i.test((err as Error).message)) {
        throw new Error(`cannot make ${name.slice(name.indexOf('_') + 1)} unique: stored documents already share a value`);
      }
      throw err;
    }
  }
}

async function existingIndexes(conn: Conn): Promise<Set<string>> {
  const names = await conn.dialect.indexNames(conn.db, 'documents');
  return new Set(names.filter((n) => PREFIXES.some((p) => n.startsWith(p))));
}
