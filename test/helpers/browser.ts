import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startTestApp, type TestApp } from './app.js';

/**
 * The studio in a real browser (docs/studio.md, "Browser tests"): Debian's Chromium driven by
 * playwright-core, headless, on a fresh profile, against the app started on a port of
 * `localhost` (a host name: WebAuthn refuses IP addresses as relying party ids).
 */
export const CHROMIUM = process.env.VELLUM_CHROMIUM ?? '/usr/bin/chromium';
export const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const RESULTS = join(import.meta.dirname, '../../test-results');

export interface BrowserApp {
  t: TestApp;
  /** `http://localhost:<port>` */
  origin: string;
  context: BrowserContext;
  /** A new tab (its own sessionStorage: signed out). */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
function deepMerge(base: Obj, extra: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(extra)) out[k] = isObj(out[k]) && isObj(v) ? deepMerge(out[k] as Obj, v) : v;
  return out;
}

/** Starts the app (passkeys on, `server.publicUrl` its own address) and Chromium with a fresh profile; `config` may depend on the address. */
export async function startBrowserApp(config: Obj | ((origin: string) => Obj) = {}): Promise<BrowserApp> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  if (typeof config === 'function') config = config(origin);
  const t = await startTestApp(
    deepMerge(
      { server: { publicUrl: origin }, security: { passkey: { enabled: true, rpId: 'localhost', rpName: 'Vellum', origin } } },
      config,
    ),
  );
  await t.app.server.listen({ port, host: '127.0.0.1' });
  const profile = mkdtempSync(join(tmpdir(), 'vellum-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [...FLAGS, '--host-resolver-rules=MAP localhost 127.0.0.1'],
      viewport: { width: 1280, height: 800 },
    });
  } catch (err) {
    await t.close();
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
  mkdirSync(RESULTS, { recursive: true });
  return {
    t,
    origin,
    context,
    async newPage() {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    },
    async close() {
      await context.close().catch(() => {});
      await t.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A full-page screenshot under test-results/ (ignored by git), to be looked at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core on the page as it is now: no serious or critical violation. It is evaluated through
 * the DevTools protocol, which the page's Content-Security-Policy does not apply to.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Colours move in short transitions (a hover, a colour scheme switched by the test): axe must
  // measure the colours a reader ends up seeing, not a frame in between. Only transitions: an
  // endless animation (a spinner) never finishes.
  await page.evaluate(
    `Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => {})))`,
  );
  await page.evaluate(axeSource);
  // A string: it runs in the page, where `axe` and `document` exist (this file has no DOM types).
  const violations = (await page.evaluate(
    `axe.run(document).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => JSON.stringify(n.target)) })))`,
  )) as Array<{ id: string; impact: string; help: string; targets: string[] }>;
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${what}: ${JSON.stringify(serious, null, 1)}`).toEqual([]);
}

/** Signs in through the sign-in form (username and password). */
export async function signIn(page: Page, origin: string, username: string, password: string, path = '/studio/'): Promise<void> {
  await page.goto(origin + path);
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Resolves once the timers the page had already scheduled have run (a timer of 0 ms queued now
 * fires after them). dnd-kit's keyboard sensor shows an item picked up at once but listens for the
 * arrow keys only from a timer of its own: an arrow pressed before that timer is lost.
 */
export async function pageTimersRun(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

/**
 * Drags `handle` onto `target` with the mouse, in small steps as a hand would, and returns once
 * the page takes clicks again: dnd-kit's pointer sensor stops every click on the document from
 * the start of a drag until 50 ms after the drop (`AbstractPointerSensor.detach`), so a click
 * made at once would be lost. A test click dispatched on the body tells when it has stopped.
 */
export async function dragTo(page: Page, handle: Locator, target: Locator): Promise<void> {
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 10 });
  await page.mouse.up();
  await page.waitForFunction(() => {
    // This runs in the page; the test files have no DOM types.
    const w = globalThis as unknown as PageDocument;
    let through = false;
    const seen = () => (through = true);
    w.document.addEventListener('click', seen);
    w.document.body.dispatchEvent(new w.MouseEvent('click', { bubbles: true }));
    w.document.removeEventListener('click', seen);
    return through;
  });
}

/** The few browser globals `dragTo`'s page-side check uses. */
interface PageDocument {
  MouseEvent: new (type: string, init: { bubbles: boolean }) => unknown;
  document: {
    addEventListener(type: string, listener: () => void): void;
    removeEventListener(type: string, listener: () => void): void;
    body: { dispatchEvent(event: unknown): boolean };
  };
}

/**
 * Reorders by keyboard as a screen-reader user does: space picks up the item whose handle is the
 * button named `handle`, each `[key, announced]` presses an arrow and waits for what the list then
 * says, and space drops it. The first arrow waits for the page's pending timers (`pageTimersRun`).
 */
export async function keyboardMove(page: Page, handle: string, moves: ReadonlyArray<readonly [key: string, announced: string]>) {
  await page.getByRole('button', { name: handle }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: handle, pressed: true }).waitFor();
  await pageTimersRun(page);
  for (const [key, announced] of moves) {
    await page.keyboard.press(key);
    await page.getByText(announced, { exact: true }).waitFor({ state: 'attached' });
  }
  await page.keyboard.press('Space');
}
