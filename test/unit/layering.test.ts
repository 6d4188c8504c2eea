import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSourceTree } from '../helpers/import-graph.js';
import { checkLayering, type LayeringReport } from '../helpers/layering-rules.js';

/**
 * The floors and package directions of docs/architecture.md, checked on the source of
 * packages/*\/src: every import (static, `import type`, `export … from`, `import()`, `import('x')`
 * in types) is read from the syntax tree, relative specifiers resolved to files.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const report = checkLayering(readSourceTree(ROOT));

/** The offenders of one rule as the failure message: one line each. */
function holds(rule: keyof LayeringReport, what: string) {
  expect(report[rule], `${what}:\n  ${report[rule].join('\n  ')}`).toEqual([]);
}

describe('layering of packages/*/src', () => {
  it('reads a non-trivial tree and resolves every relative import to a file', () => {
    expect(readSourceTree(ROOT).size).toBeGreaterThan(100);
    holds('unresolved', 'relative imports that name no file');
  });

  it('domain/ never imports http/, and only http/ and app.ts import Fastify', () => {
    holds('fastify', 'Fastify imported outside http/ and app.ts');
    expect(report.upward.filter((line) => line.includes('(domain → http)'))).toEqual([]);
  });

  it('http/ never imports storage/ (it goes through domain/)', () => holds('httpStorage', 'http/ importing storage/'));

  it('each floor imports only itself and the floors below it; config/ and errors.ts are read by all', () =>
    holds('upward', 'imports against the floors (http → domain → storage, media, mail, net)'));

  it('database drivers and Kysely are imported only in storage/', () => holds('databaseDrivers', 'database packages outside storage/'));

  it('the client never imports the server or the CLI; the server uses only the client’s wire types, type-only; the studio only the client’s browser entry', () =>
    holds('packages', 'imports across packages against their direction'));

  it('has no import cycle, type-only imports included', () => holds('cycles', 'import cycles'));

  it('constructs AppError only in errors.ts (everything else uses the `errors` constructors)', () =>
    holds('newAppError', '`new AppError` outside errors.ts'));

  it('reads the dialect only in storage/ and never asks for its name', () =>
    holds('dialectReads', 'dialect reads outside storage/ or dialect.name anywhere'));
});

/** Each rule fails on a file set that breaks it, and names the offending line. */
describe('the layering checker', () => {
  const base: Record<string, string> = {
    'packages/server/src/errors.ts': 'export class AppError extends Error {}\nexport const make = () => new AppError();\n',
    'packages/server/src/storage/connection.ts':
      "import type { Kysely } from 'kysely';\nexport interface Conn { db: Kysely<unknown>; dialect: { name: string } }\n",
    'packages/server/src/storage/store.ts':
      "import type { Conn } from './connection.js';\nexport const ok = (conn: Conn) => conn.dialect;\n",
    'packages/server/src/domain/op.ts':
      "import { ok } from '../storage/store.js';\nimport { make } from '../errors.js';\nexport const op = () => [ok, make];\n",
    'packages/server/src/http/route.ts':
      "import type { FastifyInstance } from 'fastify';\nimport { op } from '../domain/op.js';\nexport const r = (a: FastifyInstance) => [a, op];\n",
    'packages/client/src/media.ts': 'export interface Media { _id: string }\n',
    'packages/server/src/domain/view.ts': "import type { Media } from '@vellum/client';\nexport type View = Media;\n",
    'packages/cli/src/bin.ts':
      "import { VellumClient } from '@vellum/client';\nimport { start } from '@vellum/server';\nexport const x = [VellumClient, start];\n",
  };
  const check = (extra: Record<string, string>) => checkLayering(new Map(Object.entries({ ...base, ...extra })));
  const only = (r: LayeringReport) => Object.fromEntries(Object.entries(r).filter(([, v]) => (v as string[]).length > 0));

  it('finds nothing in a file set that keeps every rule', () => {
    expect(only(check({}))).toEqual({});
  });

  it('flags domain → http, and Fastify in domain/, also for type-only imports', () => {
    const r = check({
      'packages/server/src/domain/bad.ts':
        "import type { r } from '../http/route.js';\nimport type { FastifyReply } from 'fastify';\nexport type X = [typeof r, FastifyReply];\n",
    });
    expect(r.upward).toEqual(['packages/server/src/domain/bad.ts:1 imports ../http/route.js (type-only) (domain → http)']);
    expect(r.fastify).toEqual(['packages/server/src/domain/bad.ts:2 imports fastify (type-only)']);
  });

  it('flags http → storage, also through a dynamic import()', () => {
    const r = check({ 'packages/server/src/http/bad.ts': "export const load = () => import('../storage/store.js');\n" });
    expect(r.httpStorage).toEqual(['packages/server/src/http/bad.ts:1 imports ../storage/store.js']);
    expect(r.upward).toEqual(['packages/server/src/http/bad.ts:1 imports ../storage/store.js (http → storage)']);
  });

  it('flags a database driver outside storage/, also as an import() type', () => {
    const r = check({
      'packages/server/src/domain/bad.ts': "export type Pool = import('pg').Pool;\n",
      'packages/cli/src/bad.ts': "import Database from 'better-sqlite3';\nexport const d = Database;\n",
    });
    expect(r.databaseDrivers).toEqual([
      'packages/server/src/domain/bad.ts:1 imports pg (type-only)',
      'packages/cli/src/bad.ts:1 imports better-sqlite3',
    ]);
  });

  it('flags the client importing the server, and the server importing client code (not only types)', () => {
    const r = check({
      'packages/client/src/bad.ts': "import type { AppError } from '@vellum/server';\nexport type E = AppError;\n",
      'packages/client/src/bad2.ts': "export { make } from '../../server/src/errors.js';\n",
      'packages/server/src/domain/bad.ts': "import { VellumClient } from '@vellum/client';\nexport const c = VellumClient;\n",
    });
    expect(r.packages).toEqual([
      'packages/client/src/bad.ts:1 imports @vellum/server (type-only) (client → server)',
      'packages/client/src/bad2.ts:1 imports ../../server/src/errors.js (client → server)',
      'packages/server/src/domain/bad.ts:1 imports @vellum/client (server → client)',
    ]);
  });

  it('flags a cycle made of type-only imports', () => {
    const r = check({
      'packages/server/src/storage/a.ts': "import type { B } from './b.js';\nexport type A = B[];\n",
      'packages/server/src/storage/b.ts': "import type { C } from './c.js';\nexport type B = C;\n",
      'packages/server/src/storage/c.ts': "import type { A } from './a.js';\nexport type C = A | number;\n",
    });
    expect(r.cycles).toEqual([
      'packages/server/src/storage/a.ts → packages/server/src/storage/b.ts → packages/server/src/storage/c.ts → packages/server/src/storage/a.ts',
    ]);
  });

  it('lets jobs/ drive domain/ and app.ts start jobs/, and flags jobs/ reaching storage/, http/ or Fastify, and domain/ importing jobs/', () => {
    const r = check({
      'packages/server/src/jobs/worker.ts':
        "import { op } from '../domain/op.js';\nimport { ok } from '../storage/store.js';\nimport { r } from '../http/route.js';\nimport type { FastifyInstance } from 'fastify';\nexport const w = [op, ok, r] as unknown as FastifyInstance;\n",
      'packages/server/src/domain/bad.ts': "import { w } from '../jobs/worker.js';\nexport const b = w;\n",
      'packages/server/src/app.ts': "import { w } from './jobs/worker.js';\nexport const a = w;\n",
    });
    expect(r.upward).toEqual([
      'packages/server/src/jobs/worker.ts:2 imports ../storage/store.js (jobs → storage)',
      'packages/server/src/jobs/worker.ts:3 imports ../http/route.js (jobs → http)',
      'packages/server/src/domain/bad.ts:1 imports ../jobs/worker.js (domain → jobs)',
    ]);
    expect(r.fastify).toEqual(['packages/server/src/jobs/worker.ts:4 imports fastify (type-only)']);
  });

  it('flags net/ importing anything above it (net/ reads only config/ and errors.ts), and lets domain/ import net/', () => {
    const r = check({
      'packages/server/src/net/send.ts': "import { op } from '../domain/op.js';\nexport const s = op;\n",
      'packages/server/src/domain/deliver.ts': "import { s } from '../net/send.js';\nexport const d = s;\n",
    });
    expect(r.upward).toEqual(['packages/server/src/net/send.ts:1 imports ../domain/op.js (net → domain)']);
  });

  it('flags an import that names no file', () => {
    const r = check({ 'packages/server/src/domain/bad.ts': "export * from './missing.js';\n" });
    expect(r.unresolved).toEqual(['packages/server/src/domain/bad.ts:1 imports ./missing.js']);
  });

  it('flags new AppError outside errors.ts', () => {
    const r = check({
      'packages/server/src/domain/bad.ts':
        "import { AppError } from '../errors.js';\n// new AppError( in a comment is fine\nexport const e = () => new AppError();\n",
    });
    expect(r.newAppError).toEqual(['packages/server/src/domain/bad.ts:3 new AppError(…)']);
  });

  it('flags dialect reads outside storage/ and dialect.name anywhere', () => {
    const r = check({
      'packages/server/src/domain/bad.ts':
        "import type { Conn } from '../storage/connection.js';\nexport const a = (conn: Conn) => conn.dialect;\nexport const b = ({ dialect }: Conn) => dialect;\n",
      'packages/server/src/storage/bad.ts':
        "import type { Conn } from './connection.js';\nexport const c = (conn: Conn) => conn.dialect.name === 'sqlite';\n",
    });
    expect(r.dialectReads).toEqual([
      'packages/server/src/domain/bad.ts:2 conn.dialect',
      'packages/server/src/domain/bad.ts:3 { dialect } = …',
      'packages/server/src/storage/bad.ts:2 conn.dialect.name',
    ]);
  });
});
