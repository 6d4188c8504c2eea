import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSourceTree, scanImports, type ImportEdge } from '../helpers/import-graph.js';

/**
 * `@vellum/client` runs in browsers: nothing its main entry reaches (static imports, `import()`,
 * re-exports; type-only imports too, to keep the rule simple) names a Node module. File paths
 * for uploads live behind `@vellum/client/node` (docs/client.md, "Browsers and Node").
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const edges = scanImports(readSourceTree(ROOT));
const NODE_BUILTINS = new Set(builtinModules);

/** Every import edge reachable from `entry` through relative imports. */
function reachable(entry: string): ImportEdge[] {
  const seen = new Set([entry]);
  const found: ImportEdge[] = [];
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const e of edges.filter((x) => x.from === file)) {
      found.push(e);
      if (e.to && !seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
    }
  }
  return found;
}

const isNodeModule = (specifier: string) => specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0]);
const describeEdge = (e: ImportEdge) => `${e.from}:${e.line} imports ${e.specifier}`;

describe('the client entries', () => {
  it('the main entry reaches no Node module and no package at all', () => {
    const imports = reachable('packages/client/src/index.ts');
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.filter((e) => !e.specifier.startsWith('.')).map(describeEdge)).toEqual([]);
    expect(imports.filter((e) => e.specifier.startsWith('.') && !e.to).map(describeEdge)).toEqual([]);
  });

  it('the node entry is where node: modules come in (the scan sees them)', () => {
    const nodeOnly = reachable('packages/client/src/node.ts').filter((e) => isNodeModule(e.specifier));
    expect(nodeOnly.map((e) => e.specifier).sort()).toEqual(['node:crypto', 'node:fs', 'node:fs/promises']);
  });

  it('package.json exports both entries, and the CLI imports the node one', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'packages/client/package.json'), 'utf8')) as {
      exports: Record<string, { default: string }>;
    };
    expect(pkg.exports['.'].default).toBe('./dist/index.js');
    expect(pkg.exports['./node'].default).toBe('./dist/node.js');
    const cliImports = edges.filter((e) => e.from.startsWith('packages/cli/src/') && e.specifier.startsWith('@vellum/client'));
    expect(cliImports.map((e) => e.specifier)).not.toContain('@vellum/client');
  });
});
