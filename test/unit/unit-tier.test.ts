import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanImports, type ImportEdge } from '../helpers/import-graph.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * What makes a test leave the unit tier (docs/testing.md): a child process, a database, a listening
 * socket or the type checker. Named by the modules that bring them; the server's own sources may
 * import drivers (a unit test calls rules that never open them).
 */
const NOT_UNIT: Record<string, string> = {
  'node:child_process': 'starts processes',
  child_process: 'starts processes',
  'node:net': 'opens sockets',
  'node:http': 'opens sockets',
  'node:https': 'opens sockets',
  'node:tls': 'opens sockets',
  'node:worker_threads': 'starts threads',
  pg: 'opens a database',
  'better-sqlite3': 'opens a database',
  'test/helpers/app.ts': 'starts the app on a database',
  'test/helpers/database.ts': 'opens a database',
  'test/helpers/sqlite-scratch.ts': 'opens a database',
  'test/helpers/cli.ts': 'starts the CLI',
  'test/helpers/serve-process.ts': 'starts the server',
  'test/helpers/type-check.ts': 'runs the type checker',
  'test/helpers/s3-server.ts': 'starts an S3 server',
  'test/helpers/mail-catcher.ts': 'starts an SMTP server',
};

const filesIn = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => `${dir}/${name}`);

describe('the unit tier', () => {
  it('no unit test, nor a test helper it imports, starts a process, a thread, a socket or a database, or runs tsc', () => {
    const files = new Map([...filesIn('test/unit'), ...filesIn('test/helpers')].map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
    const edges = scanImports(files);
    const from = new Map<string, ImportEdge[]>();
    for (const e of edges) if (!e.typeOnly) (from.get(e.from) ?? from.set(e.from, []).get(e.from)!).push(e);
    const found: string[] = [];
    for (const test of [...files.keys()].filter((f) => f.startsWith('test/unit/'))) {
      const seen = new Set<string>();
      const walk = (file: string, via: string[]) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const e of from.get(file) ?? []) {
          const target = e.to ?? e.specifier;
          if (NOT_UNIT[target]) found.push(`${[...via, file].join(' → ')} imports ${target} (${NOT_UNIT[target]})`);
          else if (e.to?.startsWith('test/helpers/')) walk(e.to, [...via, file]);
        }
      };
      walk(test, []);
    }
    expect(found, 'move these to test/integration or test/cli').toEqual([]);
  });
});
