import type { ConfigReader } from './reader.js';
import type { DatabaseConfig } from './types.js';

/** The defaults docs/api.md lists: a database that cannot answer costs a request seconds, not minutes. */
export const DATABASE_DEFAULTS: Omit<DatabaseConfig, 'url'> = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 10_000,
  keepAlive: true,
  keepAliveInitialDelayMs: 10_000,
  busyTimeoutMs: 5_000,
};

/**
 * `database {url, connectTimeoutMs, statementTimeoutMs, keepAlive, keepAliveInitialDelayMs,
 * busyTimeoutMs}`; `DATABASE_URL` overrides the URL. Timeouts are milliseconds; the floor of 100
 * catches seconds written where milliseconds are meant.
 */
export function databaseSection(r: ConfigReader, raw: unknown, env: NodeJS.ProcessEnv): DatabaseConfig {
  const o = r.object('database', raw, ['url', ...Object.keys(DATABASE_DEFAULTS)]);
  const url = r.string('DATABASE_URL', env.DATABASE_URL ?? o.url, { def: 'sqlite:./data/vellum.db' }) as string;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(url)) r.problem('database.url', 'expected sqlite:<path> or postgres://…');
  const d = DATABASE_DEFAULTS;
  return {
    url,
    connectTimeoutMs: r.int('database.connectTimeoutMs', o.connectTimeoutMs, { def: d.connectTimeoutMs, min: 100 }) as number,
    statementTimeoutMs: r.int('database.statementTimeoutMs', o.statementTimeoutMs, { def: d.statementTimeoutMs, min: 100 }) as number,
    keepAlive: r.bool('database.keepAlive', o.keepAlive, d.keepAlive),
    keepAliveInitialDelayMs: r.int('database.keepAliveInitialDelayMs', o.keepAliveInitialDelayMs, {
      def: d.keepAliveInitialDelayMs,
      min: 0,
    }) as number,
    busyTimeoutMs: r.int('database.busyTimeoutMs', o.busyTimeoutMs, { def: d.busyTimeoutMs, min: 0 }) as number,
  };
}
