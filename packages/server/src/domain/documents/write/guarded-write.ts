import type { InsertGuards } from '../../../storage/documents/guarded-writes.js';
import type { SideRows } from '../../../storage/documents/document-writes.js';
import type { CompiledSchema } from '../../schemas/schema-registry.js';
import type { Services } from '../../services.js';
import { baseSlug, setSlug } from './allocate-slug.js';
import type { EmptySlug } from '../validate-document.js';
import type { VersionChange } from './document-change.js';
import { sideRows } from './side-rows.js';
import { mediaProblems } from './write-checks.js';

/**
 * The fast path's decision and statement: runs `write` (the target's guarded statement) with the
 * guards that make it write only when the change's references exist with the right types, its
 * media exist and its unique values (id, slugs, unique fields) are free. False, with nothing
 * written, otherwise, or when a check cannot be made without the locking path (media of a type
 * the field refuses, a required slug with nothing to make it from): that path says why.
 * Empty slugs are tried in their plain form; on false they are taken out again for it.
 */
export async function guardedWrite(
  svc: Services,
  schema: CompiledSchema,
  change: VersionChange,
  write: (side: SideRows, guards: InsertGuards) => Promise<boolean>,
): Promise<boolean> {
  const { fields, doc } = change;
  // A media type never changes after upload, so the accept check may run before the write; the
  // write itself still checks that the media exist.
  if ((await mediaProblems(svc.database, fields)).length > 0) return false;
  const slugs: EmptySlug[] = [];
  for (const slug of fields.emptySlugs) {
    const base = baseSlug(slug, fields.data);
    if (!base) return false;
    setSlug(fields.data, slug, { current: base.slug });
    slugs.push(slug);
  }
  const guards: InsertGuards = {
    // A reference to the document itself is valid when the field allows its own type.
    references: fields.references.filter((r) => !(r.id === doc.id && r.to.includes(schema.name))).map((r) => ({ id: r.id, types: r.to })),
    media: [...new Set(fields.media.map((m) => m.id))],
  };
  if (await write(sideRows(schema, fields, svc.config.locales), guards)) return true;
  for (const slug of slugs) setSlug(fields.data, slug, undefined);
  return false;
}
