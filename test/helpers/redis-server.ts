import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A redis-server of the suite's own, on a loopback port it keeps across stops and starts. */
export interface RedisServer {
  url: string;
  port: number;
  /** Kills the server (SIGKILL, as a crash would) and waits until it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (nothing is saved), and waits until it accepts connections. */
  start(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open, nothing is answered. */
  pause(): void;
  /** Lets a paused server go on (SIGCONT); it answers what it was sent meanwhile. */
  resume(): void;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `redis-server` (on PATH) without persistence; `close()` kills it. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    if (child) return;
    const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = c;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) {
          c.stdout!.off('data', onData);
          c.off('exit', onExit);
          c.stdout!.resume();
          resolve();
        }
      };
      const onExit = (code: number | null) => {
        child = undefined;
        reject(new Error(`redis-server exited (${code}) before it was ready: ${out}`));
      };
      c.stdout!.on('data', onData);
      c.stderr!.resume();
      c.once('exit', onExit);
      c.once('error', reject);
    });
  };

  const stop = async (): Promise<void> => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };

  const signal = (name: NodeJS.Signals) => {
    if (!child) throw new Error('redis-server is not running');
    child.kill(name);
  };

  // Should the suite be cut short (a hook that timed out never reaches its close), the server
  // still ends with the worker.
  const killOnExit = () => child?.kill('SIGKILL');
  process.once('exit', killOnExit);

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    pause: () => signal('SIGSTOP'),
    resume: () => signal('SIGCONT'),
    close: async () => {
      process.off('exit', killOnExit);
      await stop();
    },
  };
}
