import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../packages/cli/bin/vellum.js', import.meta.url));

export interface ServeProcess {
  /** `http://127.0.0.1:<port>/api`. */
  api: string;
  child: ChildProcess;
  /** What it printed so far (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown, attempts in flight die with it. */
  kill(): Promise<void>;
  /** SIGTERM: the orderly shutdown. */
  stop(): Promise<void>;
}

/**
 * Starts `vellum serve` (the built CLI) in `cwd` on a free loopback port, resolving once it
 * prints that it is running. `env` is added to a clean environment (PATH, HOME = cwd).
 */
export function startServe(cwd: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const m = /Vellum is running: API (http:\/\/\S+?),/.exec(output);
      if (m) resolve({ api: m[1], child, output: () => output, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`vellum serve exited with ${code}:\n${output}`)));
  });
}
