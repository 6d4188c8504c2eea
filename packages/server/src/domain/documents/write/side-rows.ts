import type { SideRows } from '../../../storage/documents/document-writes.js';
import type { CompiledSchema } from '../../schemas/schema-registry.js';
import { searchText } from '../search-text.js';
import type { LocalesConfig } from '../../../config/locales-section.js';
import type { ValidationResult } from '../validate-document.js';

/** What a write stores beside the row; computed when the write runs, so slugs generated on the way are in the search text. */
export function sideRows(schema: CompiledSchema, result: ValidationResult, locales?: LocalesConfig): SideRows {
  return {
    refs: result.references.map((r) => ({ targetId: r.id, path: r.edgePath ?? r.path })),
    media: result.media.map((m) => ({ targetId: m.id, path: m.edgePath ?? m.path })),
    searchText: searchText(schema, result.data, locales),
  };
}
