import type { VellumConfigInput } from '@vellum/server';

export type { VellumConfigInput, SchemaDef, FieldDef, BlockDef, FieldType } from '@vellum/server';

/**
 * The `vellum` package as a library: the types of a `vellum.config.ts` (docs/getting-started.md).
 * `defineConfig` only returns what it is given; it is there so an editor checks the file:
 * `export default defineConfig({ schemas: [...] })`, or without importing anything at run time,
 * `export default { … } satisfies VellumConfigInput`.
 */
export function defineConfig(config: VellumConfigInput): VellumConfigInput {
  return config;
}
