import { dialectRead, findCycles, findNodes, newAppError, packageOf, scanImports, type ImportEdge } from './import-graph.js';

/**
 * The import rules of docs/architecture.md ("The floors of packages/server/src", "Packages"), as
 * checks over source text: each rule answers the offending lines, empty when it holds.
 */

const SERVER = 'packages/server/src/';

type Floor = 'app' | 'http' | 'jobs' | 'domain' | 'storage' | 'media' | 'mail' | 'net' | 'metrics' | 'field-types' | 'config' | 'errors';

/** The floor of a server file: its first folder, `errors` for errors.ts, `app` for the files that assemble the rest. */
export function floorOf(path: string): Floor | undefined {
  if (!path.startsWith(SERVER)) return undefined;
  const rest = path.slice(SERVER.length);
  if (rest === 'errors.ts') return 'errors';
  if (!rest.includes('/')) return 'app'; // app.ts, index.ts
  return rest.split('/')[0] as Floor;
}

/** Which floors each floor may import. Arrows point down; config/ and errors.ts are read by every floor. */
const MAY_IMPORT: Record<Floor, readonly Floor[]> = {
  app: ['app', 'http', 'jobs', 'domain', 'storage', 'media', 'mail', 'net', 'metrics', 'field-types', 'config', 'errors'],
  http: ['http', 'domain', 'metrics', 'field-types', 'config', 'errors'],
  // Background work beside http/: it drives domain operations, never Fastify or SQL.
  jobs: ['jobs', 'domain', 'metrics', 'config', 'errors'],
  domain: ['domain', 'storage', 'media', 'mail', 'net', 'metrics', 'field-types', 'config', 'errors'],
  storage: ['storage', 'config', 'errors'],
  media: ['media', 'config', 'errors'],
  mail: ['mail', 'config', 'errors'],
  net: ['net', 'config', 'errors'],
  // What the service measures (docs/operations.md): every floor above records into it; storage
  // reports through callbacks app.ts wires, so it never imports it.
  metrics: ['metrics', 'config', 'errors'],
  // The field-type table (docs/architecture.md): config/ checks schema options with it at start-up,
  // and it reads config/'s reader and types only (no file imports back: the cycle check holds).
  'field-types': ['field-types', 'config', 'errors'],
  config: ['config', 'field-types', 'errors'],
  errors: [],
};

/**
 * The domain owns the list vocabulary (fields in API terms, operators, typed values) and storage
 * implements it: storage may read that one types-only module, type-only (docs/architecture.md).
 */
const VOCABULARY = `${SERVER}domain/documents/list-query.ts`;
const implementsVocabulary = (e: ImportEdge) => e.typeOnly && e.to === VOCABULARY && floorOf(e.from) === 'storage';

/** Database drivers and the SQL builder: all SQL lives in storage/. */
const DATABASE_PACKAGES = new Set(['pg', 'better-sqlite3', 'ioredis', 'kysely']);

const isFastify = (pkg: string) => pkg === 'fastify' || pkg.startsWith('@fastify/');

/** `packages/<name>/…` → `<name>`. */
const workspaceOf = (path: string) => path.split('/')[1];

/** The workspace package a bare specifier names (`@vellum/server` → `server`), if any. */
const workspaceNamed = (specifier: string) => /^@vellum\/([^/]+)/.exec(specifier)?.[1];

const where = (e: ImportEdge) => `${e.from}:${e.line} imports ${e.specifier}${e.typeOnly ? ' (type-only)' : ''}`;

export interface LayeringReport {
  /** A relative import that names no file: the graph below would miss an edge. */
  unresolved: string[];
  /** An import against MAY_IMPORT (nothing imports upward or skips past the floor it uses). */
  upward: string[];
  /** domain/ (or anything but http/ and app.ts) importing Fastify. */
  fastify: string[];
  /** http/ importing storage/ (also counted under `upward`, named separately because the issue names it). */
  httpStorage: string[];
  /** A database driver or Kysely imported outside storage/. */
  databaseDrivers: string[];
  /** The client importing the server or the CLI, or the server importing the client for more than types, or the CLI. */
  packages: string[];
  /** Import cycles, type-only imports included. */
  cycles: string[];
  /** `new AppError(` outside errors.ts: errors come from the named constructors. */
  newAppError: string[];
  /** A `.dialect` read outside storage/, or `dialect.name` read anywhere: dialect differences are capabilities. */
  dialectReads: string[];
}

export function checkLayering(files: ReadonlyMap<string, string>): LayeringReport {
  const edges = scanImports(files);
  const report: LayeringReport = {
    unresolved: [],
    upward: [],
    fastify: [],
    httpStorage: [],
    databaseDrivers: [],
    packages: [],
    cycles: [],
    newAppError: [],
    dialectReads: [],
  };
  for (const e of edges) {
    const relative = e.specifier.startsWith('.');
    if (relative && !e.to) report.unresolved.push(where(e));
    const fromFloor = floorOf(e.from);
    const toFloor = e.to ? floorOf(e.to) : undefined;
    if (fromFloor && toFloor && !MAY_IMPORT[fromFloor].includes(toFloor) && !implementsVocabulary(e))
      report.upward.push(`${where(e)} (${fromFloor} → ${toFloor})`);
    if (fromFloor === 'http' && toFloor === 'storage') report.httpStorage.push(where(e));

    const pkg = relative || e.specifier.startsWith('node:') ? undefined : packageOf(e.specifier);
    if (pkg && isFastify(pkg) && fromFloor !== 'http' && fromFloor !== 'app') report.fastify.push(where(e));
    if (pkg && DATABASE_PACKAGES.has(pkg) && fromFloor !== 'storage') report.databaseDrivers.push(where(e));

    const fromPackage = workspaceOf(e.from);
    const toPackage = e.to ? workspaceOf(e.to) : workspaceNamed(e.specifier);
    if (toPackage && toPackage !== fromPackage) {
      const allowed =
        (fromPackage === 'cli' && (toPackage === 'server' || toPackage === 'client')) ||
        // The studio runs in browsers: the client's browser entry only, never `@vellum/client/node`.
        (fromPackage === 'studio' && toPackage === 'client' && e.specifier === '@vellum/client') ||
        // The client owns the wire types; the server builds them (type-only: no client code runs in it).
        (fromPackage === 'server' && toPackage === 'client' && e.typeOnly && !relative) ||
        // One pure module beside them: the PascalCase type naming the OpenAPI document shares with `vellum types`.
        (fromPackage === 'server' && e.specifier === '@vellum/client/type-names');
      if (!allowed) report.packages.push(`${where(e)} (${fromPackage} → ${toPackage})`);
    }
  }
  report.cycles = findCycles(edges).map((cycle) => cycle.join(' → '));
  const all = () => true;
  report.newAppError = findNodes(files, (path) => path !== `${SERVER}errors.ts`, newAppError).map((f) => `${f.file}:${f.line} ${f.what}`);
  report.dialectReads = findNodes(files, all, dialectRead)
    .filter((f) => f.what === 'dialect.name' || f.what.endsWith('.dialect.name') || floorOf(f.file) !== 'storage')
    .map((f) => `${f.file}:${f.line} ${f.what}`);
  return report;
}
