import type { FieldDef } from '../../config/types.js';
import type { InsertGuards } from '../../storage/checked-document-writes.js';
import type { StoredDocument } from '../../storage/document-rows.js';
import type { SideRows } from '../../storage/document-writes.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import type { Services } from '../services.js';
import { baseSlug } from './allocate-slug.js';
import { sideRows } from './side-rows.js';
import type { ValidationResult } from './validate-document.js';
import { mediaProblems } from './write-checks.js';

/**
 * The fast path of a write: writes the document (`write`: the checked insert or update) when its
 * references exist with the right types, its media exist and its unique values (id, slugs, unique
 * fields) are free; false, with nothing written, otherwise. Empty slugs are tried in their plain
 * form; on false they are taken out again for the checked path (`checkAndWrite`).
 */
export async function writeIfValid(
  svc: Services,
  schema: CompiledSchema,
  result: ValidationResult,
  doc: StoredDocument,
  write: (side: SideRows, guards: InsertGuards) => Promise<boolean>,
): Promise<boolean> {
  // A media type never changes after upload, so the accept check may run before the write; the
  // write itself still checks that the media exist.
  if ((await mediaProblems(svc.database, result)).length > 0) return false;
  const slugs: FieldDef[] = [];
  for (const field of result.emptySlugs) {
    const base = baseSlug(field, result.data);
    if (!base) return false; // a required slug with nothing to make it from: the checked path says so
    result.data[field.name] = { current: base.slug };
    slugs.push(field);
  }
  const guards: InsertGuards = {
    // A reference to the document itself is valid when the field allows its own type.
    references: result.references.filter((r) => !(r.id === doc.id && r.to.includes(schema.name))).map((r) => ({ id: r.id, types: r.to })),
    media: [...new Set(result.media.map((m) => m.id))],
  };
  if (await write(sideRows(schema, result), guards)) return true;
  for (const field of slugs) delete result.data[field.name];
  return false;
}
