import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { generateTypes } from '../../packages/cli/src/types/generate-types.js';
import type { SchemaDef } from '../../packages/server/src/config/types.js';
import { documentJsonSchema, type JsonSchema } from '../../packages/server/src/domain/schemas/document-json-schema.js';
import { SchemaRegistry } from '../../packages/server/src/domain/schemas/schema-registry.js';
import { componentNames } from '../../packages/server/src/http/openapi/document-types.js';
import { TEST_SCHEMAS } from '../helpers/schemas.js';
import { servedTypes } from '../helpers/served-types.js';
import { typeCheckFiles } from '../helpers/type-check.js';

/**
 * The OpenAPI component schemas and the TypeScript of `vellum types` agree field by field
 * (docs/api.md, "OpenAPI"): each JSON Schema, read as a TypeScript type, and the generated
 * interface of the same name are assignable both ways, so a required field missing on one side,
 * a field optional on one side only or of another shape fails to compile. (An optional field
 * on one side only would still pass here: test/http/openapi.test.ts compares the property lists.)
 */
const dir = mkdtempSync(join(tmpdir(), 'vellum-openapi-types-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A JSON Schema of the subset document-json-schema.ts writes, as a TypeScript type. */
function asTs(s: JsonSchema): string {
  if ('const' in s) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(s.type)) return s.type.map((type) => asTs({ ...s, type })).join(' | ');
  switch (s.type) {
    case 'null':
      return 'null';
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `Array<${asTs(s.items as JsonSchema)}>`;
    case 'object': {
      const props = (s.properties ?? undefined) as Record<string, JsonSchema> | undefined;
      if (!props) return 'Record<string, unknown>';
      const required = new Set((s.required as string[] | undefined) ?? []);
      return `{ ${Object.entries(props)
        .map(([k, v]) => `${JSON.stringify(k)}${required.has(k) ? '' : '?'}: ${asTs(v)};`)
        .join(' ')} }`;
    }
    default:
      return 'unknown';
  }
}

it('every type schema and its generated interface are the same type', () => {
  const registry = new SchemaRegistry(TEST_SCHEMAS as SchemaDef[]);
  writeFileSync(join(dir, 'types.ts'), generateTypes(servedTypes(TEST_SCHEMAS)));
  const names = componentNames(registry.list().map((s) => s.name));
  const checks = registry.list().map((s) => {
    const n = names.get(s.name)!;
    return [
      `type Json${n} = ${asTs(documentJsonSchema(s))};`,
      `export const ${s.name}_a: Json${n} = null as unknown as T.${n};`,
      `export const ${s.name}_b: T.${n} = null as unknown as Json${n};`,
    ].join('\n');
  });
  const check = join(dir, 'check.ts');
  writeFileSync(check, `import type * as T from './types';\n${checks.join('\n')}\n`);
  expect(typeCheckFiles([check])).toEqual([]);
});

it('a missing field or a changed optionality would be caught', () => {
  const registry = new SchemaRegistry(TEST_SCHEMAS as SchemaDef[]);
  const post = documentJsonSchema(registry.get('post')!);
  const without = { ...post, required: (post.required as string[]).filter((r) => r !== 'title') };
  const check = join(dir, 'broken.ts');
  writeFileSync(check, `import type * as T from './types';\nexport const x: T.Post = null as unknown as ${asTs(without)};\n`);
  expect(typeCheckFiles([check]).length).toBeGreaterThan(0);
});
