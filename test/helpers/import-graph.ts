import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix, relative, sep } from 'node:path';
import type * as TypeScript from 'typescript';

// Required, not imported: an ESM import of the CommonJS compiler first scans its 9 MB for named
// exports, about a second and a half of the unit tier on two cores.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

/** One import of a source file: static, `import type`, `export … from`, `import()` or an `import('x')` type. */
export interface ImportEdge {
  /** The importing file, relative to the repository root with `/` separators. */
  from: string;
  specifier: string;
  /** The file a relative specifier names (undefined for packages, and for relative paths that name no known file). */
  to?: string;
  typeOnly: boolean;
  line: number;
}

/** Every `.ts` file under `packages/<name>/src`, keyed by repository-relative path. */
export function readSourceTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.set(relative(root, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  for (const pkg of readdirSync(join(root, 'packages'), { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue;
    const src = join(root, 'packages', pkg.name, 'src');
    try {
      walk(src);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return files;
}

/** `./x.js` → `dir/x.ts` (NodeNext specifiers name the emitted `.js`); also `./x` and `./x/index`. */
function resolveRelative(from: string, specifier: string, files: ReadonlyMap<string, string>): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const stem = base.replace(/\.(js|ts|mjs|cjs)$/, '');
  return [`${stem}.ts`, `${stem}/index.ts`, base].find((candidate) => files.has(candidate));
}

function isTypeOnlyImport(node: TypeScript.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x.js'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly)
  );
}

// Parsing the whole tree is most of the unit tier's time, and the layering rules walk it three times
// (client-entries.test.ts, in the same worker, once more): each text is parsed once.
const parsed = new Map<string, TypeScript.SourceFile>();
function parse(path: string, text: string): TypeScript.SourceFile {
  const known = parsed.get(path);
  if (known?.text === text) return known;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  parsed.set(path, source);
  return source;
}

/** The imports of every file, from its syntax tree (never from regular expressions over the text). */
export function scanImports(files: ReadonlyMap<string, string>): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const [path, text] of files) {
    const source = parse(path, text);
    const add = (specifier: string, typeOnly: boolean, node: TypeScript.Node) => {
      const to = specifier.startsWith('.') ? resolveRelative(path, specifier, files) : undefined;
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      edges.push({ from: path, specifier, to, typeOnly, line });
    };
    const visit = (node: TypeScript.Node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, isTypeOnlyImport(node), node);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, node.isTypeOnly, node);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [arg] = node.arguments;
        if (arg && ts.isStringLiteralLike(arg)) add(arg.text, false, node);
      } else if (ts.isImportTypeNode(node)) {
        const arg = node.argument;
        if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) add(arg.literal.text, true, node);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

/** The package a bare specifier names: `@scope/name` or `name` (`pg/lib/x` → `pg`). */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Import cycles among the files (type-only imports count), each as the files in order; one per strongly connected component. */
export function findCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const e of edges) if (e.to) (next.get(e.from) ?? next.set(e.from, new Set()).get(e.from)!).add(e.to);
  // Tarjan's strongly connected components; any component of two or more files holds a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)?.has(v)) components.push(component);
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) connect(v);
  return components.map((component) => cycleThrough(component, next));
}

/** One concrete cycle inside a strongly connected component, starting at its first file in sort order. */
function cycleThrough(component: string[], next: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0];
  // Breadth-first from `start` back to `start`: the shortest cycle through it.
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of next.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(parent.get(path[0])!);
        return [...path, start];
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

export interface Finding {
  file: string;
  line: number;
  what: string;
}

/** Every node of the included files for which `match` answers a description (what was found). */
export function findNodes(
  files: ReadonlyMap<string, string>,
  include: (path: string) => boolean,
  match: (node: TypeScript.Node) => string | undefined,
): Finding[] {
  const found: Finding[] = [];
  for (const [path, text] of files) {
    if (!include(path)) continue;
    const source = parse(path, text);
    const visit = (node: TypeScript.Node) => {
      const what = match(node);
      if (what !== undefined) found.push({ file: path, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** `new AppError(…)`. */
export function newAppError(node: TypeScript.Node): string | undefined {
  return ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'AppError'
    ? 'new AppError(…)'
    : undefined;
}

/** A read of a `dialect` property (`conn.dialect`, `const { dialect } = conn`) or of a dialect's `name` (`dialect.name`, `conn.dialect.name`). */
export function dialectRead(node: TypeScript.Node): string | undefined {
  if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
    const key = node.propertyName ?? node.name;
    return ts.isIdentifier(key) && key.text === 'dialect' ? '{ dialect } = …' : undefined;
  }
  if (!ts.isPropertyAccessExpression(node)) return undefined;
  if (node.name.text === 'dialect') return `${node.expression.getText()}.dialect`;
  const owner = node.expression;
  const ownerIsDialect =
    (ts.isIdentifier(owner) && owner.text === 'dialect') || (ts.isPropertyAccessExpression(owner) && owner.name.text === 'dialect');
  return node.name.text === 'name' && ownerIsDialect ? `${owner.getText()}.name` : undefined;
}
