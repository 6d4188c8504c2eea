import type { FieldDef } from '../../../config/types.js';
import type { Conn } from '../../../storage/connection.js';
import { countWithSuffix, lockSlug, valuesWithSuffix, valueTaken } from '../../../storage/documents/unique-values.js';
import type { CompiledSchema } from '../../schemas/schema-registry.js';
import { slugify } from '../../../field-types/slugify.js';

export interface BaseSlug {
  slug: string;
  /** The slug cut to leave room for a `-N` suffix within the length limit. */
  stem: string;
}

/** The slug of the field's `source`, before any suffix; undefined when there is nothing to slugify. */
export function baseSlug(field: FieldDef, data: Record<string, unknown>): BaseSlug | undefined {
  const source = field.source ? data[field.source] : undefined;
  if (typeof source !== 'string') return undefined;
  const max = Math.min(field.maxLength ?? 96, 96);
  const slug = slugify(source, max);
  if (!slug) return undefined;
  return { slug, stem: slug.slice(0, max - 7).replace(/-+$/, '') || slug };
}

/**
 * The base slug, or with `-2`, `-3`… appended until it is free within the type (constant queries,
 * not one per candidate). Until the transaction ends, other writers allocating from the same stem
 * wait: they would pick the same free suffix.
 */
export async function allocateSlug(conn: Conn, schema: CompiledSchema, field: FieldDef, base: BaseSlug, selfId: string): Promise<string> {
  await lockSlug(conn, schema.name, field.name, base.stem);
  const path = [field.name, 'current'];
  const taken = (value: string) => valueTaken(conn, schema.name, path, value, selfId);
  if (!(await taken(base.slug))) return base.slug;
  const { stem } = base;
  // Usually the next free suffix is one past the number already in use: two queries however many exist.
  const guess = `${stem}-${Math.max(2, (await countWithSuffix(conn, schema.name, path, stem, selfId)) + 1)}`;
  if (!(await taken(guess))) return guess;
  // Gaps from deletions or hand-written slugs: take the smallest free one.
  const used = new Set(await valuesWithSuffix(conn, schema.name, path, stem, selfId));
  for (let n = 2; ; n++) if (!used.has(`${stem}-${n}`)) return `${stem}-${n}`;
}
