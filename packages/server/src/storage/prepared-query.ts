import { CompiledQuery, type Compilable } from 'kysely';
import type { Conn } from './connection.js';
import type { Dialect } from './dialect.js';
import { nameStatement } from './postgres/named-statements.js';

const MARK = '\u0000vellum-param:';

/**
 * A query built with Kysely's builder once per dialect, then run with new values: the SQL text is
 * kept and only the parameters change. Building and compiling costs about 10 µs a query, which
 * shows on paths run for every request (the session check) and every write.
 *
 * `param(name)` stands for a value given at run time; it may be used wherever a value goes
 * (values, where clauses, raw `sql` fragments). The shape must not depend on the values: lists of
 * varying length need the ordinary builder. On PostgreSQL the text also becomes a named prepared
 * statement, parsed and planned once per connection.
 */
export function preparedQuery<Row, P extends string>(build: (conn: Conn, param: (name: P) => string) => Compilable<Row>) {
  const compiled = new Map<Dialect, { sql: string; slots: Array<{ name: P } | { value: unknown }> }>();
  return async (conn: Conn, values: Readonly<Record<P, unknown>>): Promise<Row[]> => {
    let c = compiled.get(conn.dialect);
    if (!c) {
      const q = build(conn, (name) => `${MARK}${name}`).compile();
      c = {
        sql: q.sql,
        slots: q.parameters.map((p) => (typeof p === 'string' && p.startsWith(MARK) ? { name: p.slice(MARK.length) as P } : { value: p })),
      };
      compiled.set(conn.dialect, c);
      nameStatement(c.sql);
    }
    const params = c.slots.map((s) => ('name' in s ? values[s.name] : s.value));
    return (await conn.db.executeQuery<Row>(CompiledQuery.raw(c.sql, params))).rows;
  };
}
