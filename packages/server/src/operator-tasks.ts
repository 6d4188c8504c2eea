import { createApp } from './app.js';
import type { VellumConfig } from './config/types.js';
import { createUserAsOperator, setPasswordAsOperator } from './domain/identity/operator-accounts.js';
import type { NewUser } from './domain/identity/insert-user.js';
import type { Services } from './domain/services.js';
import { openDatabase } from './storage/database.js';
import { migrateToLatest } from './storage/migrations/index.js';

/**
 * What `vellum migrate` and `vellum user …` do on the configured database, without a server
 * listening (docs/cli.md). Failures are the server's own errors (`AppError` with the spec's code).
 */

/** Brings the database schema up to date; answers the migrations it applied. */
export async function migrateDatabase(config: VellumConfig): Promise<string[]> {
  const database = await openDatabase(config.database.url, config.database);
  try {
    return await migrateToLatest(database);
  } finally {
    await database.close();
  }
}

/** Runs `task` with the services of a started (not listening) app: start-up as `vellum serve` does it. */
async function withServices<T>(config: VellumConfig, task: (svc: Services) => Promise<T>): Promise<T> {
  const app = await createApp(config);
  try {
    return await task(app.services);
  } finally {
    await app.close();
  }
}

export type OperatorNewUser = Pick<NewUser, 'username' | 'email' | 'password' | 'role' | 'firstName' | 'lastName'>;

export function createUserOnDatabase(config: VellumConfig, user: OperatorNewUser): Promise<{ id: string; username: string; role: string }> {
  return withServices(config, (svc) => createUserAsOperator(svc, user));
}

export function setPasswordOnDatabase(config: VellumConfig, username: string, password: string): Promise<void> {
  return withServices(config, (svc) => setPasswordAsOperator(svc, username, password));
}
