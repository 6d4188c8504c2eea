import { watch, writeFileSync, type FSWatcher } from 'node:fs';
import { basename, relative } from 'node:path';
import type { App, VellumConfig } from '@vellum/server';
import type { Command } from '../command.js';
import { prettyLogStream } from '../output/pretty-log.js';
import { LISTEN_OPTIONS, reportStartupError, sayWhichConfig, startApp } from './serve.js';
import { typesFromConfig } from './types.js';

const DEFAULT_TYPES = 'vellum-types.ts';

/**
 * `vellum dev` (docs/cli.md, "Serving"): `vellum serve` for working on a project. Logs are one
 * readable line each; the config file is watched, and a change restarts the server on the same
 * port (a config with problems keeps the running one and says why); the TypeScript types of the
 * content model are written at every start.
 */
export const devCommand: Command = {
  name: 'dev',
  summary: 'Start the server for development: readable logs, restarted when the config changes, types written',
  synopsis: '',
  options: {
    ...LISTEN_OPTIONS,
    types: { type: 'string', value: 'FILE', help: `where to write the types (default ${DEFAULT_TYPES}; "none" writes none)` },
  },
  args: { min: 0, max: 0 },
  notes:
    'Not for production: use vellum serve there (JSON logs, nothing watched). Exit: 78 bad configuration at the first start, 69 cannot listen.',
  async run({ flags }) {
    const dev = new DevServer(flags.string('config'), flags.string('port'), flags.string('host'), flags.string('types') ?? DEFAULT_TYPES);
    return dev.start();
  },
};

class DevServer {
  private app?: App;
  private watcher?: FSWatcher;
  private restarting: Promise<void> = Promise.resolve();

  constructor(
    private readonly configPath: string | undefined,
    private readonly port: string | undefined,
    private readonly host: string | undefined,
    private readonly typesFile: string,
  ) {}

  /** The first start: a bad config or a taken port ends the command, as with `vellum serve`. */
  async start(): Promise<number> {
    let file: string | undefined;
    let config: VellumConfig;
    try {
      file = await sayWhichConfig(this.configPath);
      config = await this.load(file);
    } catch (err) {
      return reportStartupError(err);
    }
    const started = await this.listen(config);
    if (typeof started === 'number') return started;
    if (file) this.watch(file);
    const stop = async (signal: string) => {
      process.stdout.write(`\n${signal}: shutting down\n`);
      this.watcher?.close();
      await this.restarting;
      await this.app?.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
    return new Promise<number>(() => undefined);
  }

  private async load(file: string | undefined): Promise<VellumConfig> {
    const { loadConfig } = await import('@vellum/server');
    const config = await loadConfig({ configPath: file, flags: { port: this.port, host: this.host } });
    if (file) this.writeTypes(file);
    return config;
  }

  private async listen(config: VellumConfig): Promise<number | App> {
    const app = await startApp(config, prettyLogStream(process.stdout));
    if (typeof app !== 'number') this.app = app;
    return app;
  }

  /** Editors save in several writes (or replace the file): changes within 200 ms are one restart. */
  private watch(file: string): void {
    let timer: NodeJS.Timeout | undefined;
    this.watcher = watch(file, () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.restarting = this.restarting.then(() => this.restart(file));
      }, 200);
    });
  }

  private async restart(file: string): Promise<void> {
    const name = basename(file);
    let config: VellumConfig;
    try {
      config = await this.load(file);
    } catch (err) {
      const problems = (err as { problems?: string[] }).problems ?? [(err as Error).message];
      process.stderr.write(
        `vellum: ${name} has problems; the server keeps running as it was:\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
      );
      return;
    }
    process.stdout.write(`${name} changed: restarting\n`);
    await this.app?.close();
    this.app = undefined;
    const started = await this.listen(config);
    if (typeof started === 'number')
      process.stderr.write('vellum: the server did not start again; fix the problem above and save the file\n');
  }

  /** The content model's types (`vellum types --config`), beside the config unless told otherwise. */
  private writeTypes(file: string): void {
    if (this.typesFile === 'none') return;
    void typesFromConfig(file)
      .then(({ text, count }) => {
        writeFileSync(this.typesFile, text);
        process.stdout.write(`Types: ${count} document types in ${relative(process.cwd(), this.typesFile) || this.typesFile}\n`);
      })
      .catch((err: unknown) => process.stderr.write(`vellum: cannot write the types to ${this.typesFile}: ${(err as Error).message}\n`));
  }
}
