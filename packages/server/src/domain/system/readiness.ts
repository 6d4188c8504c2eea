import { errors } from '../../errors.js';
import { ping } from '../../storage/ping.js';
import type { Services } from '../services.js';

/** What `GET /ready` reports of each dependency (docs/operations.md, "Readiness"). */
export interface Readiness {
  /** `degraded`: the node serves, with a shared part (Redis) away. */
  status: 'ok' | 'degraded';
  checks: { database: 'ok'; storage: 'ok'; redis?: 'ok' | 'unavailable' };
}

/** A dependency that has not answered by then counts as down: a load balancer's probe must not hang. */
const CHECK_MS = 2_000;

/** A key no upload can have (uploads are `<id>.<ext>`, ids never start with `vellum-`): its stat asks the store, nothing more. */
const STORAGE_PROBE = 'vellum-ready-probe';

/**
 * Readiness: the database answers and the file store (local or S3) answers; Redis is reported but
 * does not decide (while it is away each node counts rate limits on its own and fans events out
 * locally, docs/realtime.md), so a Redis outage does not take every node out of the balancer.
 * Throws 503 `SERVICE_UNAVAILABLE` with `Retry-After`, naming each dependency that failed.
 */
export async function checkReadiness(svc: Services): Promise<Readiness> {
  const [database, storage] = await Promise.all([probe(() => ping(svc.database)), probe(() => svc.files.stat(STORAGE_PROBE))]);
  const failed = [
    ...(database ? [{ field: 'database', message: database }] : []),
    ...(storage ? [{ field: 'storage', message: storage }] : []),
  ];
  if (failed.length > 0) throw errors.notReady(failed);
  const shared = svc.counters.shared?.();
  const redis = shared === undefined ? undefined : shared ? ('ok' as const) : ('unavailable' as const);
  return {
    status: redis === 'unavailable' ? 'degraded' : 'ok',
    checks: { database: 'ok', storage: 'ok', ...(redis ? { redis } : {}) },
  };
}

/** Undefined when `check` answers in time; otherwise why not. */
async function probe(check: () => Promise<unknown>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${CHECK_MS} ms`), CHECK_MS)));
  try {
    return await Promise.race([check().then(() => undefined), late]);
  } catch {
    return 'not reachable';
  } finally {
    clearTimeout(timer);
  }
}
