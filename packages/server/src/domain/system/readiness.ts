import { ping } from '../../storage/ping.js';
import type { Services } from '../services.js';

/** Readiness: resolves when the database answers, otherwise throws 503 `SERVICE_UNAVAILABLE` with `Retry-After`. */
export async function checkReadiness(svc: Services): Promise<void> {
  await ping(svc.database);
}
