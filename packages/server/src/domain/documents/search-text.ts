import type { FieldDef } from '../../config/types.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import { SEARCHABLE } from '../schemas/schema-registry.js';
import { richtextToText } from './sanitize-richtext.js';

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

/** The text a document contributes to full-text search: its string/text/markdown/richtext values. */
export function searchText(schema: CompiledSchema, data: Record<string, unknown>): string {
  const parts: string[] = [];
  collect(schema.fields, data, parts);
  return parts.join('\n');
}

function collect(fields: readonly FieldDef[], data: Record<string, unknown>, parts: string[]): void {
  for (const f of fields) {
    const v = data[f.name];
    if (v === undefined) continue;
    collectValue(f, v, parts);
  }
}

function collectValue(f: Omit<FieldDef, 'name'>, v: unknown, parts: string[]): void {
  if (SEARCHABLE.includes(f.type) && typeof v === 'string') parts.push(f.type === 'richtext' ? richtextToText(v) : v);
  else if (f.type === 'object' && v && typeof v === 'object') collect(f.fields ?? [], v as Record<string, unknown>, parts);
  else if (f.type === 'array' && Array.isArray(v) && f.of) for (const item of v) collectValue(f.of, item, parts);
}
