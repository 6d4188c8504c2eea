import { specOf } from '../../field-types/index.js';
import type { SearchSink } from '../../field-types/field-type-spec.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';

const MAX_WORDS = 16;

/** The words of a search query: letters and digits only, so no engine syntax gets through. */
export function searchWords(query: string): string[] {
  return (
    query
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).slice(0, MAX_WORDS);
}

/** The text a document contributes to full-text search: what each field's type gives (string, text, markdown, richtext). */
export function searchText(schema: CompiledSchema, data: Record<string, unknown>): string {
  const parts: string[] = [];
  const out: SearchSink = {
    text: (text) => parts.push(text),
    value: (field, value) => specOf(field).search?.(field, value, out),
  };
  for (const f of schema.fields) if (data[f.name] !== undefined) out.value(f, data[f.name]);
  return parts.join('\n');
}
