import { errors, type ErrorDetail } from '../../../errors.js';
import type { Conn } from '../../../storage/connection.js';
import { findDocumentHeads, type DocumentHead } from '../../../storage/documents/document-rows.js';
import { findMediaByIds } from '../../../storage/media/media-store.js';
import { valueTaken } from '../../../storage/documents/unique-values.js';
import { mimeAccepted } from '../../shared/mime-accepted.js';
import { isUnique, uniquePath, uniqueScalar, type CompiledSchema } from '../../schemas/schema-registry.js';
import type { ValidationResult } from '../validate-document.js';
import { LOCALES_KEY, otherLocales } from '../../locales/localized-data.js';
import { placeIn } from './allocate-slug.js';
import type { EmptySlug } from '../validate-document.js';

/** What a write may require of the documents its references point at, beyond existing with an allowed type (publish: published). */
export type ReferenceRule = (targets: ReadonlyMap<string, DocumentHead>, references: ValidationResult['references']) => void;

/**
 * References point at existing documents of an allowed type (one query for all of them); 422
 * otherwise. `rule` then checks the same targets for more (the publish's reference rule), so a
 * write reads its targets once.
 */
export async function checkReferences(
  conn: Conn,
  schema: CompiledSchema,
  result: ValidationResult,
  selfId: string,
  rule?: ReferenceRule,
): Promise<void> {
  if (result.references.length === 0) return;
  const details: ErrorDetail[] = [];
  const ids = [...new Set(result.references.map((r) => r.id))].filter((id) => id !== selfId);
  const found = new Map((await findDocumentHeads(conn, ids)).map((d) => [d.id, d]));
  for (const ref of result.references) {
    const type = ref.id === selfId ? schema.name : found.get(ref.id)?.type;
    if (type === undefined) details.push({ field: ref.path, message: `references a missing document ${ref.id}` });
    else if (!ref.to.includes(type)) details.push({ field: ref.path, message: `must reference ${ref.to.join(' or ')}, not ${type}` });
  }
  if (details.length > 0) throw errors.validation(details);
  rule?.(found, result.references);
}

/** Image and file fields hold ids of existing media whose type the field accepts (one query): what is wrong, per field. */
export async function mediaProblems(conn: Conn, result: ValidationResult): Promise<ErrorDetail[]> {
  if (result.media.length === 0) return [];
  const found = new Map((await findMediaByIds(conn, [...new Set(result.media.map((m) => m.id))])).map((m) => [m.id, m.mimeType]));
  const details: ErrorDetail[] = [];
  for (const ref of result.media) {
    const mime = found.get(ref.id);
    if (mime === undefined) details.push({ field: ref.path, message: `references a missing media item ${ref.id}` });
    else if (!mimeAccepted(mime, ref.accept)) details.push({ field: ref.path, message: `must be ${ref.accept.join(' or ')}, not ${mime}` });
  }
  return details;
}

/** 409 with one detail per unique or slug value (given, not generated) another document of the type holds. */
export async function checkUnique(
  conn: Conn,
  schema: CompiledSchema,
  result: ValidationResult,
  selfId: string,
  generated: readonly EmptySlug[],
): Promise<void> {
  const taken: ErrorDetail[] = [];
  for (const field of schema.fields) {
    if (!isUnique(field)) continue;
    // A localized field is unique per locale (docs/localization.md): each locale's own value among that locale's.
    const places = [[], ...(field.localized ? Object.keys(otherLocales(result.data)).map((code) => [LOCALES_KEY, code]) : [])];
    for (const at of places) {
      const value = placeIn(result.data, at)?.[field.name];
      if (value === undefined || generated.some((g) => g.field === field && g.at.join() === at.join())) continue;
      if (await valueTaken(conn, schema.name, [...at, ...uniquePath(field)], uniqueScalar(field, value), selfId))
        taken.push({ field: at.length > 0 ? `${field.name}.${at[1]}` : field.name, message: 'is already taken' });
    }
  }
  if (taken.length > 0) throw errors.conflict('A unique value is already taken', taken);
}
