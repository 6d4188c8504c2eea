import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FIELD_TYPE_NAMES } from '../../packages/server/src/field-types/index.js';

/**
 * A field type is known in one place, packages/server/src/field-types/ (docs/architecture.md, the
 * `field-types/` floor): the server's domain/ and http/ read the table and never name a type, and the
 * studio reads the table's hints in `GET /config/schemas` (docs/api.md, "Schemas"). Checked on
 * the syntax tree (no type-check, so it is fast): a type name compared with or switched on a
 * `.type`, or two type names listed together (a Set or array of types), is an offence.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const NAMES = new Set<string>(FIELD_TYPE_NAMES);
const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

const isTypeName = (n: ts.Node, names: ReadonlySet<string>): n is ts.StringLiteralLike => ts.isStringLiteralLike(n) && names.has(n.text);
const isDotType = (n: ts.Node) =>
  (ts.isPropertyAccessExpression(n) && n.name.text === 'type') ||
  (ts.isElementAccessExpression(n) && ts.isStringLiteralLike(n.argumentExpression) && n.argumentExpression.text === 'type');

/** The offences in one source text, as `file:line what`; `names` are the type names looked for. */
export function typeNamesOutsideRegistry(file: string, text: string, names: ReadonlySet<string> = NAMES): string[] {
  const isName = (n: ts.Node): n is ts.StringLiteralLike => isTypeName(n, names);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, what: string) =>
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${what}`);
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      const [a, b] = [node.left, node.right];
      if ((isDotType(a) && isName(b)) || (isDotType(b) && isName(a))) report(node, `compares .type with ${node.getText(source)}`);
    }
    if (ts.isSwitchStatement(node) && isDotType(node.expression)) {
      for (const clause of node.caseBlock.clauses) {
        if (ts.isCaseClause(clause) && isName(clause.expression)) report(clause, `switches .type on ${clause.expression.getText(source)}`);
      }
    }
    if (ts.isArrayLiteralExpression(node) && node.elements.filter(isName).length >= 2) {
      report(node, `lists type names ${node.getText(source).slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Uses of the same words that are not field types (file and what, any line), each with why. */
const NOT_FIELD_TYPES = new Set([
  // @fastify/multipart's kind of part (a file or a form field), not a schema field type.
  "packages/server/src/http/routes/media/upload.ts compares .type with part.type === 'file'",
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe('field types are named only in the registry', () => {
  it('no file of the server’s domain/ or http/ names a field type', () => {
    const files = ['domain', 'http'].flatMap((floor) => sourceFiles(join(ROOT, 'packages/server/src', floor)));
    expect(files.length).toBeGreaterThan(50);
    const found = files
      .flatMap((path) => typeNamesOutsideRegistry(relative(ROOT, path), readFileSync(path, 'utf8')))
      .filter((offence) => !NOT_FIELD_TYPES.has(offence.replace(/:\d+ /, ' ')));
    expect(found, `field types named outside packages/server/src/field-types/:\n  ${found.join('\n  ')}`).toEqual([]);
  });

  it('the CLI code that reads the served JSON Schemas (types, transfer) names no field type', () => {
    // JSON Schema's own `type` words, which some field types share: that is the vocabulary the CLI reads.
    const jsonSchemaTypes = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
    const names = new Set([...NAMES].filter((n) => !jsonSchemaTypes.has(n)));
    const files = ['json-schema', 'types', 'transfer'].flatMap((dir) => sourceFiles(join(ROOT, 'packages/cli/src', dir)));
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((path) => typeNamesOutsideRegistry(relative(ROOT, path), readFileSync(path, 'utf8'), names));
    expect(found, `field types named in the CLI:\n  ${found.join('\n  ')}`).toEqual([]);
  });

  it('no file of the studio names a field type: it reads the hints of GET /config/schemas', () => {
    const files = sourceFiles(join(ROOT, 'packages/studio/src'));
    expect(files.filter((f) => f.endsWith('.tsx')).length).toBeGreaterThan(50);
    const found = files.flatMap((path) => typeNamesOutsideRegistry(relative(ROOT, path), readFileSync(path, 'utf8')));
    expect(found, `field types named in the studio instead of read from its hints:\n  ${found.join('\n  ')}`).toEqual([]);
  });

  it('the check fails on each form it looks for, and not on other uses of the same words', () => {
    const planted = [
      "if (field.type === 'slug') x();",
      "if ('reference' !== f.of?.type) x();",
      "switch (field.type) { case 'richtext': break; }",
      "const STRING_TYPES = new Set(['string', 'text']);",
      "if (['array', 'object'].includes(target.type)) x();",
      "if (field['type'] == 'image') x();",
    ];
    for (const line of planted) expect(typeNamesOutsideRegistry('planted.ts', line), line).toHaveLength(1);
    // The studio's forms, in JSX.
    const plantedTsx = [
      "export const N = (p: P) => <input type=\"number\" step={p.field.type === 'integer' ? 1 : 'any'} />;",
      "export const A = () => <button onClick={() => add(of.type === 'object' ? {} : undefined)}>Add</button>;",
    ];
    for (const line of plantedTsx) expect(typeNamesOutsideRegistry('planted.tsx', line), line).toHaveLength(1);
    const innocent = [
      "if (typeof v === 'string') x();",
      "if (schema.type === 'singleton') x();",
      "const t = { type: ['string', 'null'] };",
      'const spec = FIELD_TYPES[target.type];',
    ];
    for (const line of innocent) expect(typeNamesOutsideRegistry('innocent.ts', line), line).toEqual([]);
  });
});
