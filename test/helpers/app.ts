import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export const ADMIN = { username: 'admin', password: 'admin-password-1', email: 'admin@example.com' };

export interface TestApp {
  app: App;
  db: TestDatabase;
  /** In-process HTTP request (Fastify inject): the full stack, without a socket. */
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /** Signs in and returns the access token. */
  login(username: string, password: string): Promise<string>;
  /** Creates a user with a role (directly through the domain, users API comes later) and returns a token. */
  userToken(role: string, permissions?: string[]): Promise<string>;
  close(): Promise<void>;
}

type ConfigInput = Record<string, unknown>;

function merge(base: ConfigInput, extra: ConfigInput): ConfigInput {
  const out: ConfigInput = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const b = out[k];
    out[k] = b && v && typeof b === 'object' && typeof v === 'object' && !Array.isArray(v) ? merge(b as ConfigInput, v as ConfigInput) : v;
  }
  return out;
}

export interface TestAppOptions {
  now?: () => Date;
  /** The URL the app is given for the fresh database (a proxy's, say); the database's own by default. */
  databaseUrl?: (url: string) => string;
}

/**
 * Starts the app on a fresh database with a configured admin and fast bcrypt. The webhook delivery
 * worker and the schedule runner are off unless the suite turns them on (`webhooks: { worker: true }`,
 * `documents: { scheduleRunner: true }`): elsewhere their polls would land in statement counts, and
 * rows a suite writes would change under it.
 */
export async function startTestApp(config: ConfigInput = {}, opts: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  let app: App;
  try {
    const url = opts.databaseUrl ? opts.databaseUrl(db.url) : db.url;
    const resolved = resolveConfig(
      merge(
        {
          database: { url },
          security: { bcryptRounds: 4, adminUser: ADMIN },
          webhooks: { worker: false },
          documents: { scheduleRunner: false },
        },
        config,
      ),
      {},
    );
    app = await createApp(resolved, { now: opts.now });
  } catch (err) {
    await db.drop();
    throw err;
  }
  let counter = 0;
  const { request, login } = injectRequests(app);
  return {
    app,
    db,
    request,
    login,
    async userToken(role, permissions = []) {
      const { insertUser } = await import('../../packages/server/src/domain/identity/insert-user.js');
      const username = `${role}${++counter}_${Math.random().toString(36).slice(2, 8)}`;
      const password = 'user-password-1';
      await insertUser(app.services, app.services.database, { username, email: `${username}@example.com`, password, role, permissions });
      return login(username, password);
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

/** In-process requests to `app` (Fastify inject), a bearer token as `token`, and a sign-in answering the access token. */
export function injectRequests(app: App): Pick<TestApp, 'request' | 'login'> {
  const request = (o: InjectOptions & { token?: string }) => {
    const { token, ...rest } = o;
    const headers = { ...(rest.headers ?? {}) } as Record<string, string>;
    if (token) headers.authorization = `Bearer ${token}`;
    return app.server.inject({ ...rest, headers });
  };
  const login = async (username: string, password: string) => {
    const res = await request({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
    return res.json().data.token as string;
  };
  return { request, login };
}

/**
 * The usual frame of an HTTP suite: one app for the file (on its own database), the configured
 * admin signed in, the app closed after the last test. `start` runs inside beforeAll, so it may
 * read what earlier hooks set up (a mail catcher's URL); `ready` hands the app and the admin's
 * token to the suite's own variables.
 */
export function useAdminApp(start: () => Promise<TestApp>, ready: (t: TestApp, admin: string) => void): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await start();
    ready(app, await app.login(ADMIN.username, ADMIN.password));
  });
  afterAll(() => app?.close());
}
