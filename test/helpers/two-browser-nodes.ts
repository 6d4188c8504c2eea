import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createApp, resolveConfig, type App } from '../../packages/server/src/index.js';
import { ADMIN, injectRequests, type TestApp } from './app.js';
import { CHROMIUM, FLAGS, freePort } from './browser.js';
import { createTestDatabase, type TestDatabase } from './database.js';

/** One node of the site: the app, its origin, and a browser context of its own (its own cookies and storage). */
export interface BrowserNode {
  app: App;
  /** `http://localhost:<port>` */
  origin: string;
  context: BrowserContext;
  request: TestApp['request'];
  login: TestApp['login'];
  newPage(): Promise<Page>;
}

export interface TwoBrowserNodes {
  nodes: [BrowserNode, BrowserNode];
  db: TestDatabase;
  close(): Promise<void>;
}

/**
 * Two apps on one PostgreSQL database, sharing the change bus over LISTEN/NOTIFY (docs/realtime.md,
 * "Several nodes"), each on its own port of `localhost`, and one Chromium with a context per node:
 * two people, each on their own node. The in-process counterpart of `two-nodes.ts` for the studio.
 */
export async function startTwoBrowserNodes(config: Record<string, unknown> = {}): Promise<TwoBrowserNodes> {
  const db = await createTestDatabase('postgres');
  const apps: App[] = [];
  let browser: Browser | undefined;
  const close = async () => {
    await browser?.close().catch(() => {});
    for (const app of apps.reverse()) await app.close().catch(() => {});
    await db.drop();
  };
  try {
    const nodes: BrowserNode[] = [];
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...FLAGS, '--host-resolver-rules=MAP localhost 127.0.0.1'],
    });
    // One after the other: the first migrates and creates the admin, as a rolling start does.
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const origin = `http://localhost:${port}`;
      const app = await createApp(
        resolveConfig(
          {
            ...config,
            database: { url: db.url },
            realtime: { fanout: 'postgres' },
            server: { publicUrl: origin },
            webhooks: { worker: false },
            documents: { scheduleRunner: false },
            security: { bcryptRounds: 4, adminUser: ADMIN, rateLimit: { login: { windowMs: 900_000, max: 1000 } } },
          },
          {},
        ),
      );
      apps.push(app);
      await app.server.listen({ port, host: '127.0.0.1' });
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      nodes.push({
        app,
        origin,
        context,
        ...injectRequests(app),
        async newPage() {
          const page = await context.newPage();
          page.setDefaultTimeout(10_000);
          return page;
        },
      });
    }
    return { nodes: nodes as [BrowserNode, BrowserNode], db, close };
  } catch (err) {
    await close();
    throw err;
  }
}
