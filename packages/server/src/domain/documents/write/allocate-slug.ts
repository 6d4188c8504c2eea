import type { EmptySlug } from '../validate-document.js';
import type { Conn } from '../../../storage/connection.js';
import { countWithSuffix, lockSlug, valuesWithSuffix, valueTaken } from '../../../storage/documents/unique-values.js';
import type { CompiledSchema } from '../../schemas/schema-registry.js';
import { slugify } from '../../../field-types/slugify.js';

export interface BaseSlug {
  slug: string;
  /** The slug cut to leave room for a `-N` suffix within the length limit. */
  stem: string;
}

type Data = Record<string, unknown>;

/** The object at a place of the data (`[]`: the data itself); made on the way when `make`. */
export function placeIn(data: Data, at: readonly string[], make = false): Data | undefined {
  let o: Data | undefined = data;
  for (const key of at) {
    let next: unknown = o[key];
    if ((typeof next !== 'object' || next === null) && make) o[key] = next = {};
    if (typeof next !== 'object' || next === null) return undefined;
    o = next as Data;
  }
  return o;
}

/** Sets (or with `undefined` removes) an empty slug's value at its place. */
export function setSlug(data: Data, slug: EmptySlug, value: { current: string } | undefined): void {
  const place = placeIn(data, slug.at, value !== undefined);
  if (!place) return;
  if (value === undefined) delete place[slug.field.name];
  else place[slug.field.name] = value;
}

/** The slug of the field's `source`, before any suffix; undefined when there is nothing to slugify. */
export function baseSlug(empty: EmptySlug, data: Data): BaseSlug | undefined {
  const { field } = empty;
  const source = field.source ? placeIn(data, empty.sourceAt)?.[field.source] : undefined;
  if (typeof source !== 'string') return undefined;
  const max = Math.min(field.maxLength ?? 96, 96);
  const slug = slugify(source, max, empty.locale);
  if (!slug) return undefined;
  return { slug, stem: slug.slice(0, max - 7).replace(/-+$/, '') || slug };
}

/**
 * The base slug, or with `-2`, `-3`… appended until it is free within the type (constant queries,
 * not one per candidate). Until the transaction ends, other writers allocating from the same stem
 * wait: they would pick the same free suffix.
 */
export async function allocateSlug(conn: Conn, schema: CompiledSchema, slug: EmptySlug, base: BaseSlug, selfId: string): Promise<string> {
  const { field, at } = slug;
  // Slugs are unique per locale: each locale's place allocates on its own (docs/localization.md).
  await lockSlug(conn, schema.name, [...at, field.name].join('.'), base.stem);
  const path = [...at, field.name, 'current'];
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
