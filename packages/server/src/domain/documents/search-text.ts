import { specOf } from '../../field-types/index.js';
import type { SearchSink } from '../../field-types/field-type-spec.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import type { LocalesConfig } from '../../config/locales-section.js';
import { serveLocale } from '../locales/localized-data.js';

const MAX_WORDS = 16;

/** The words of a search query: letters and digits only, so no engine syntax gets through. */
export function searchWords(query: string): string[] {
  return searchWordsOf(query).slice(0, MAX_WORDS);
}

const searchWordsOf = (text: string): string[] =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The text a document contributes to full-text search: what each field's type gives (string,
 * text, markdown, richtext). With locales (docs/localization.md, "Querying"), the document as
 * served in each locale but the default follows, each word marked with that locale
 * (`localeWord`): one row and one index serve every locale's search, and a word matches in a
 * locale exactly when the document served in it holds the word.
 */
export function searchText(schema: CompiledSchema, data: Record<string, unknown>, locales?: LocalesConfig): string {
  const text = fieldsText(schema, data);
  if (!locales || schema.localized.length === 0) return text;
  const names = schema.localized.map((f) => f.name);
  const parts = [text];
  for (const { code } of locales.list) {
    if (code === locales.default) continue;
    const served: Record<string, unknown> = { ...data };
    serveLocale(served, names, { code, chain: locales.chains[code] }, locales);
    const words = searchWordsOf(fieldsText(schema, served));
    if (words.length > 0) parts.push(words.map((w) => localeWord(code, w)).join(' '));
  }
  return parts.join('\n');
}

function fieldsText(schema: CompiledSchema, data: Record<string, unknown>): string {
  const parts: string[] = [];
  const out: SearchSink = {
    text: (text) => parts.push(text),
    value: (field, value) => specOf(field).search?.(field, value, out),
  };
  for (const f of schema.fields) if (data[f.name] !== undefined) out.value(f, data[f.name]);
  return parts.join('\n');
}

/**
 * A word as indexed and searched for in a locale other than the default: `zl<hex of the code>z`
 * before it, letters and digits only, so both engines keep it one token (and fold its accents as
 * they fold any word's), and no word of the default locale's text starts the same way unless
 * written so on purpose.
 */
export function localeWord(code: string, word: string): string {
  return `zl${Buffer.from(code.toLowerCase()).toString('hex')}z${word}`;
}
