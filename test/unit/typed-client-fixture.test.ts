import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateTypes } from '../../packages/cli/src/types/generate-types.js';
import { listSchemas } from '../../packages/server/src/domain/schemas/list-schemas.js';
import { SchemaRegistry } from '../../packages/server/src/domain/schemas/schema-registry.js';
import { TYPED_CLIENT_SCHEMAS } from '../types/typed-client-model.js';

/**
 * The typed-client type tests (test/types/typed-client.test-d.ts) read what `vellum types` writes
 * for their model: the committed file must be exactly that, or they would test something else.
 */
describe('the typed-client fixture', () => {
  it('is what vellum types writes for the model today', () => {
    const written = generateTypes(listSchemas(new SchemaRegistry(TYPED_CLIENT_SCHEMAS)));
    expect(readFileSync(new URL('../types/typed-client-schemas.ts', import.meta.url), 'utf8')).toBe(written);
  });
});
