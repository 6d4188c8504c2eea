import { ping } from '../../storage/ping.js';
import type { Services } from '../services.js';

export async function databaseReady(svc: Services): Promise<boolean> {
  try {
    await ping(svc.database);
    return true;
  } catch {
    return false;
  }
}
