import { errors } from '../../../errors.js';
import type { Conn } from '../../../storage/connection.js';
import { tryWriteFirst, writeUnlessTaken } from '../../../storage/write-unless-taken.js';
import type { CompiledSchema } from '../../schemas/schema-registry.js';
import { allocateSlug, baseSlug, setSlug } from './allocate-slug.js';
import type { ValidationResult } from '../validate-document.js';
import { checkReferences, checkUnique, mediaProblems, type ReferenceRule } from './write-checks.js';

/**
 * The checked path of a write, inside a transaction: references first (one query for all of
 * them), media, then slugs and unique values. Those are asked for before the write, except where
 * a refused statement leaves the transaction usable (SQLite): there the unique indexes answer
 * during the write itself, each empty slug is tried as its plain form, and only a refusal costs
 * the queries that find the taken value or the next free slug, and one more try. Without `unique`
 * (a pending draft) only references and media are checked; `referenceRule` asks more of the
 * documents referenced (write-checks.ts).
 */
export async function checkAndWrite<T>(
  conn: Conn,
  schema: CompiledSchema,
  result: ValidationResult,
  selfId: string,
  write: () => Promise<T>,
  opts: { unique?: boolean; referenceRule?: ReferenceRule } = {},
): Promise<T> {
  const unique = opts.unique ?? true;
  await checkReferences(conn, schema, result, selfId, opts.referenceRule);
  const media = await mediaProblems(conn, result);
  if (media.length > 0) throw errors.validation(media);
  const bases = new Map(result.emptySlugs.map((slug) => [slug, baseSlug(slug, result.data)]));
  // `required` is the default locale's (docs/localization.md): another locale's slug may stay empty.
  const missing = [...bases].filter(([slug, base]) => !base && slug.field.required && slug.at.length === 0);
  if (missing.length > 0) throw errors.validation(missing.map(([slug]) => ({ field: slug.field.name, message: 'is required' })));

  const plainSlugs = () => {
    for (const [slug, base] of bases) if (base) setSlug(result.data, slug, { current: base.slug });
  };
  // Where no unique index applies (a pending draft), the plain slugs stand until it is published.
  if (!unique) {
    plainSlugs();
    return write();
  }
  const first = await tryWriteFirst(conn, () => {
    plainSlugs();
    return write();
  });
  if (first.written) return first.value;
  for (const slug of bases.keys()) setSlug(result.data, slug, undefined);
  for (const [slug, base] of bases) {
    if (base) setSlug(result.data, slug, { current: await allocateSlug(conn, schema, slug, base, selfId) });
  }
  await checkUnique(conn, schema, result, selfId, [...bases.keys()]);
  // A unique index that fires now, after the checks passed, is a race lost to a concurrent write.
  const last = await writeUnlessTaken(conn, write);
  if (!last.written) throw new LostRace();
  return last.value;
}

/** A unique index refused a write whose checks had passed: a concurrent write took the value first. */
export class LostRace extends Error {}

const lostRaceConflict = () => errors.conflict('A unique value is already taken (concurrent write)');

/** Runs `write` again while it loses races to a unique index, `attempts` times in all; then 409. */
export async function retryLostRace<T>(attempts: number, write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof LostRace)) throw err;
      if (attempt >= attempts) throw lostRaceConflict();
    }
  }
}
