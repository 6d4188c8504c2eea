import type { VellumConfig } from './config/types.js';
import { listSchemas } from './domain/schemas/list-schemas.js';
import { SchemaRegistry } from './domain/schemas/schema-registry.js';

/**
 * What `GET /config/schemas` answers, made from a resolved configuration without a database or a
 * server: `vellum types --config` and `vellum dev` write the TypeScript types from it.
 */
export function describeContentModel(config: VellumConfig) {
  return { schemas: listSchemas(new SchemaRegistry(config.schemas)), locales: config.locales };
}
