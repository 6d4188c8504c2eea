import type { SchemaDefinition, VellumClient } from '@vellum/client/node';
import { isSchema, type JsonSchema } from './json-schema.js';

/** A document type as the CLI reads it: its name and its documents' JSON Schema. */
export interface TypeSchema {
  name: string;
  jsonSchema: JsonSchema;
}

/**
 * The server's document types, each with the JSON Schema of its documents (`GET /config/schemas`,
 * docs/api.md "Schemas"). A server that serves none is older than this CLI: read on, it would
 * give no shapes and no references, so the command stops here instead.
 */
export async function fetchTypeSchemas(client: VellumClient): Promise<SchemaDefinition[]> {
  const schemas = await client.config.schemas();
  const bare = schemas.find((s) => !isSchema(s.jsonSchema));
  if (bare) throw new Error(`the server gives no JSON Schema for type ${bare.name} (GET /config/schemas): it is older than this CLI`);
  return schemas;
}
