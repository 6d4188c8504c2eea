import { resolve } from 'node:path';
import type { App, VellumConfig } from '@vellum/server';
import type { Command, OptionDefs } from '../command.js';

export interface ServeOptions {
  configPath?: string;
  port?: string;
  host?: string;
}

/** sysexits.h EX_UNAVAILABLE: the service cannot be offered (the port is taken, the address is not ours). */
export const EXIT_UNAVAILABLE = 69;

/**
 * `vellum serve`: loads the configuration (flags > env > file > defaults), starts the app and
 * listens. A bad configuration prints one line per problem and exits 78; a port it cannot listen
 * on exits 69, naming the port. Returns only on failure; on SIGINT/SIGTERM it closes the server
 * and the database before exiting.
 */
export async function serve(opts: ServeOptions): Promise<number> {
  // The server package (Fastify, the database drivers, sharp) loads only for commands that run it.
  const { loadConfig } = await import('@vellum/server');
  let config;
  try {
    await sayWhichConfig(opts.configPath);
    config = await loadConfig({ configPath: opts.configPath, flags: { port: opts.port, host: opts.host } });
  } catch (err) {
    return reportStartupError(err);
  }
  const app = await startApp(config);
  if (typeof app === 'number') return app;
  stopOnSignals(app, config.server.shutdownTimeoutMs);
  return new Promise<number>(() => undefined);
}

/**
 * The drained shutdown (docs/operations.md, "Shutdown"): on SIGTERM or SIGINT the server stops
 * accepting connections, ends event streams (clients reconnect elsewhere), lets the requests in
 * flight and the webhook attempts finish, then closes the database and exits 0. Past
 * `timeoutMs` it exits 1 without waiting further; a second signal exits at once.
 */
function stopOnSignals(app: App, timeoutMs: number): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    process.stdout.write(`\n${signal}: shutting down (requests in flight have ${timeoutMs} ms to finish)\n`);
    setTimeout(() => {
      process.stderr.write(`vellum: requests still running after ${timeoutMs} ms (server.shutdownTimeoutMs); exiting\n`);
      process.exit(1);
    }, timeoutMs).unref();
    try {
      await app.close();
    } catch (err) {
      process.stderr.write(`vellum: the shutdown failed: ${(err as Error).message}\n`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/**
 * The app made and listening, its addresses announced; or the exit code of what failed (a start-up
 * error 1, a port it cannot listen on 69). `logStream`: where log lines go (JSON on stdout by default).
 */
export async function startApp(config: VellumConfig, logStream?: { write(line: string): void }): Promise<App | number> {
  const { createApp } = await import('@vellum/server');
  let app: App;
  try {
    app = await createApp(config, { logger: { level: config.server.logLevel, ...(logStream ? { stream: logStream } : {}) } });
  } catch (err) {
    return reportStartupError(err);
  }
  let address: string;
  try {
    address = await app.server.listen({ port: config.server.port, host: config.server.host });
  } catch (err) {
    await app.close();
    return reportListenError(err, config.server.port, config.server.host);
  }
  announce(app, config, address);
  return app;
}

/**
 * Which configuration a start reads, relative to the working directory (docs/cli.md, "Serving"):
 * one line on stderr when there is none, since the content model is then empty. Returns its path.
 */
export async function sayWhichConfig(configPath: string | undefined): Promise<string | undefined> {
  const { findConfigFile } = await import('@vellum/server');
  const file = findConfigFile(configPath ?? process.env.VELLUM_CONFIG, process.cwd());
  if (!file)
    process.stderr.write(
      `vellum: no vellum.config.{json,js,mjs,ts} in ${process.cwd()}: starting with no document types ` +
        '(npm create vellum makes a project; --config names a file elsewhere)\n',
    );
  return file;
}

/** The addresses, the data, and the claim link of an instance without users. */
export function announce(app: App, config: VellumConfig, address: string): void {
  const base = config.server.publicUrl ?? address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  process.stdout.write(`Vellum is running: API ${base}${config.server.basePath}, studio ${base}/studio\n`);
  const url = config.database.url;
  process.stdout.write(
    `Data: ${url.startsWith('sqlite:') ? `${resolve(url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, ''))} (SQLite)` : 'PostgreSQL'}\n`,
  );
  if (app.claimToken) {
    process.stdout.write(
      `\nThis instance has no users yet. Claim it once (the token works until an admin exists):\n` +
        `  ${base}/studio/claim?token=${app.claimToken}\n` +
        `  or: curl -X POST ${base}${config.server.basePath}/auth/claim -H 'content-type: application/json' \\\n` +
        `        -d '{"token":"${app.claimToken}","username":"admin","email":"you@example.com","password":"…"}'\n\n`,
    );
  }
}

export async function reportStartupError(err: unknown): Promise<number> {
  const { ConfigError, EXIT_CONFIG } = await import('@vellum/server');
  if (err instanceof ConfigError) {
    process.stderr.write(`vellum: the configuration has problems:\n${err.problems.map((p) => `  ${p}`).join('\n')}\n`);
    return EXIT_CONFIG;
  }
  // The innermost cause names what failed (`connect ECONNREFUSED 10.0.0.5:5432`); the outer
  // messages are written for API callers and say only that the database is unavailable.
  let root = err as Error;
  while (root.cause instanceof Error) root = root.cause;
  const detail = root !== err ? ` (${root.message})` : '';
  process.stderr.write(`vellum: cannot start: ${(err as Error).message}${detail}\n`);
  return 1;
}

export function reportListenError(err: unknown, port: number, host: string): number {
  if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
    process.stderr.write(`vellum: port ${port} is already in use on ${host} (choose another with --port, PORT or server.port)\n`);
  else process.stderr.write(`vellum: cannot listen on port ${port} of ${host}: ${(err as Error).message}\n`);
  return EXIT_UNAVAILABLE;
}

/** The flags of every command that opens the configured database (`serve`, `migrate`, `user`). */
export const CONFIG_OPTIONS: OptionDefs = {
  config: {
    type: 'string',
    value: 'FILE',
    help: 'config file (default: VELLUM_CONFIG, or vellum.config.{json,js,mjs,ts} in the working directory)',
  },
};

/** The flags of every command that starts the server (`serve`, `dev`): the config, and where it listens. */
export const LISTEN_OPTIONS: OptionDefs = {
  ...CONFIG_OPTIONS,
  port: { type: 'string', value: 'N', help: 'port (default 3000, or PORT)' },
  host: { type: 'string', value: 'H', help: 'host (default 0.0.0.0, or HOST)' },
};

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Start the Vellum server',
  synopsis: '',
  options: LISTEN_OPTIONS,
  args: { min: 0, max: 0 },
  notes:
    'Precedence: flags > environment > config file > defaults. Exit: 78 bad configuration, 69 cannot listen, 1 other start-up failure.',
  run: ({ flags }) => serve({ configPath: flags.string('config'), port: flags.string('port'), host: flags.string('host') }),
};
