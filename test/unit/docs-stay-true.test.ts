import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? files(path) : [relative(ROOT, path)];
  });
}

const TREE = ['packages', 'test', 'bench', 'docs'].flatMap((d) => files(join(ROOT, d)));

/** Backticked file names (`x.ts`, `storage/x.ts`) in a piece of markdown. */
function namedFiles(markdown: string): string[] {
  return [...markdown.matchAll(/`([A-Za-z0-9_./-]+\.(?:ts|mjs|md))`/g)].map((m) => m[1]);
}

describe('docs that stay true', () => {
  it('docs/architecture.md names only files that exist (what comes later is in its last section)', () => {
    const text = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const now = text.split('## Where the next features go')[0];
    const missing = namedFiles(now).filter((name) => !TREE.some((f) => f === name || f.endsWith(`/${name}`)));
    expect(missing, `named in docs/architecture.md but not in the tree: ${missing.join(', ')}`).toEqual([]);
  });

  it('docs/request-flows.md, docs/decisions/ and CONTRIBUTING.md name only files that exist', () => {
    const docs = ['docs/request-flows.md', 'CONTRIBUTING.md', ...TREE.filter((f) => f.startsWith('docs/decisions/') && f.endsWith('.md'))];
    const missing = docs.flatMap((doc) =>
      namedFiles(readFileSync(join(ROOT, doc), 'utf8'))
        .filter((name) => !TREE.some((f) => f === name || f.endsWith(`/${name}`)))
        .map((name) => `${doc}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('code, tests and docs cite docs/ or an RFC, never a design document outside the repository', () => {
    const citing = TREE.filter((f) => /\.(ts|mjs|md)$/.test(f) && f !== 'test/unit/docs-stay-true.test.ts').filter((f) =>
      /DESIGN(\.md)?\s*§|DESIGN\.md/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(citing).toEqual([]);
  });
});
