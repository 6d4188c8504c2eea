import type { SchemaDef } from '../../packages/server/src/config/types.js';
import { documentJsonSchema } from '../../packages/server/src/domain/schemas/document-json-schema.js';
import { SchemaRegistry } from '../../packages/server/src/domain/schemas/schema-registry.js';

/**
 * Schema definitions as a config holds them, turned into what `GET /config/schemas` gives the CLI
 * of each type (`name`, `jsonSchema`: docs/api.md, "Schemas") by the server's own code and a trip
 * through JSON, so the CLI's types and transfer walk are tested on what a server would send.
 */
export function servedTypes(defs: readonly object[]): Array<{ name: string; jsonSchema: Record<string, unknown> }> {
  const types = new SchemaRegistry(defs as SchemaDef[]).list().map((s) => ({ name: s.name, jsonSchema: documentJsonSchema(s) }));
  return JSON.parse(JSON.stringify(types)) as Array<{ name: string; jsonSchema: Record<string, unknown> }>;
}
