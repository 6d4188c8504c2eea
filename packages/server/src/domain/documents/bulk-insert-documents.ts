import type { FieldDef } from '../../config/types.js';
import { errors, type ErrorDetail } from '../../errors.js';
import type { BulkDocument } from '../../storage/documents/bulk-insert-documents.js';
import type { Conn } from '../../storage/connection.js';
import { findDocumentsByIds } from '../../storage/documents/document-rows.js';
import { requirePublishIfNeeded, requireSchemaAction } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { uuidv7 } from '../shared/ids.js';
import { isUnique, uniqueScalar, type CompiledSchema } from '../schemas/schema-registry.js';
import type { Services } from '../services.js';
import { baseSlug } from './write/allocate-slug.js';
import { asObject, statusOf } from './document-body.js';
import { schemaOr404 } from './schema-or-404.js';
import { sideRows } from './write/side-rows.js';
import { DATETIME, ID_PATTERN, validateDocument, type FoundMedia, type FoundReference } from './validate-document.js';
import { mediaProblems } from './write/write-checks.js';
import { mainVersion } from './write/main-version.js';
import { documentLocale, localeValidation, replacedData, type DocumentLocale } from '../locales/document-locales.js';
import type { LocalesConfig } from '../../config/locales-section.js';
import { writeDocumentBatch } from './write/write-pipeline.js';

/**
 * Documents written per transaction by default: statements, not commits, are most of the cost,
 * and SQLite's one writer is not held for long (about a tenth of a second), so a bulk insert
 * beside a serving node delays its writes only a little. Loads into an idle database may ask for
 * larger batches (fewer commits, each page written fewer times).
 */
export const BULK_BATCH_SIZE = 1000;
const MAX_BATCH_SIZE = 10_000;
/** Validation details reported at most: a bad import should not produce a million-line error. */
const MAX_DETAILS = 50;

export interface BulkInsertInput {
  type: string;
  /**
   * Bodies as `POST /documents/:type` takes them (fields, `_id`, `_status`), each with its own slug
   * values, and optionally `_createdAt` (an ISO 8601 date-time; now by default), which is also its
   * `_updatedAt`: imported content keeps its dates.
   */
  documents: readonly unknown[];
  /** Documents per transaction, 1 to 10 000; BULK_BATCH_SIZE by default. */
  batchSize?: number;
  /** Recorded as `_createdBy`/`_updatedBy` and checked for the write (and publish) permission as a create is; none records null. */
  actor?: Principal;
  /**
   * The locale of the bodies' localized fields, as a create's `?locale=` (docs/localization.md,
   * "Writing"): a code, or `*` for `{<code>: value}` objects; the default locale when absent.
   */
  locale?: string;
}

/** One document ready to write, with where it was in the input (for error details). */
interface Prepared extends BulkDocument {
  index: number;
  references: FoundReference[];
  media: FoundMedia[];
}

/**
 * Writes many new documents of one type at once (imports, the benchmark's seeding): the stored
 * rows are those `createDocument` would store, written by set-based statements in batches (`batchSize`),
 * one transaction each. Every document of the call is validated before any is
 * written; a batch whose references, media or unique values fail is not written at all (the
 * batches before it are, and the error says how many documents that is).
 *
 * Unlike a create, nothing is generated: each document brings its own slugs. And no change events
 * are recorded: no webhook deliveries are queued and the realtime stream hears nothing. A bulk
 * load is not a million edits, and subscribers that want the result re-read the type.
 *
 * Answers the number written and the documents' ids, in input order.
 */
export async function bulkInsertDocuments(svc: Services, input: BulkInsertInput): Promise<{ inserted: number; ids: string[] }> {
  // 1. Type (a singleton has one document, never a batch) and the actor's write permission.
  const schema = schemaOr404(svc, input.type);
  if (schema.singleton) throw errors.invalidInput(`${schema.name} is a singleton: create its document on its own`);
  if (input.actor) requireSchemaAction(input.actor, schema.name, 'write');
  const by = input.actor ? actorId(input.actor) : null;
  const batchSize = input.batchSize ?? BULK_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
    throw errors.invalidInput(`batchSize must be a whole number from 1 to ${MAX_BATCH_SIZE}`);
  }

  // 2. Every document validated as a create validates it, before anything is written.
  const now = svc.now().toISOString();
  const details: ErrorDetail[] = [];
  const prepared: Prepared[] = [];
  const locale = documentLocale(svc, input.locale);
  const context: PrepareContext = { schema, now, by, actor: input.actor, locale, locales: svc.config.locales };
  input.documents.forEach((raw, index) => {
    const item = prepareDocument(context, raw, index, details);
    if (item) prepared.push(item);
  });
  if (details.length > 0) throw errors.validation(details.slice(0, MAX_DETAILS), `${details.length} problem(s) in the documents`);

  // 3. No two documents of the call share an id, a slug or a unique value (the indexes would refuse the batch anyway; this names them).
  const duplicates = duplicateValues(schema, prepared);
  if (duplicates.length > 0) throw errors.invalidInput('Documents of the call share unique values', duplicates.slice(0, MAX_DETAILS));

  // 4. Batch by batch, by the write pipeline: references and media checked for the whole batch in
  //    one query each, then the rows. Caches of the type drop after each commit, as after a create.
  for (let start = 0; start < prepared.length; start += batchSize) {
    const batch = prepared.slice(start, start + batchSize);
    await writeDocumentBatch(svc, {
      schema,
      target: mainVersion,
      batch,
      async check(conn) {
        const problems = [...(await referenceProblems(conn, schema, batch)), ...(await mediaProblemsOf(conn, batch))];
        if (problems.length > 0)
          throw errors.validation(problems.slice(0, MAX_DETAILS), notWritten(start, 'references or media are missing'));
      },
      taken: () => errors.conflict(notWritten(start, 'an id, slug or unique value is already taken')),
    });
  }
  return { inserted: prepared.length, ids: prepared.map((item) => item.doc.id) };
}

const notWritten = (start: number, why: string) =>
  `The batch from document ${start} was not written (${why}); the ${start} document(s) before it were`;

/** What every document of a call is prepared with. */
interface PrepareContext {
  schema: CompiledSchema;
  now: string;
  by: string | null;
  actor: Principal | undefined;
  locale: DocumentLocale | undefined;
  locales: LocalesConfig | undefined;
}

/** A document's row and side rows, or undefined with its problems added to `details` (paths start with `documents.N.`). */
function prepareDocument(
  { schema, now, by, actor, locale, locales }: PrepareContext,
  raw: unknown,
  index: number,
  details: ErrorDetail[],
): Prepared | undefined {
  const at = `documents.${index}`;
  const before = details.length;
  const problem = (field: string, message: string) => details.push({ field: `${at}.${field}`, message });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    details.push({ field: at, message: 'must be a JSON object' });
    return undefined;
  }
  const body = asObject(raw);
  let status: string;
  try {
    status = statusOf(body, 'draft');
  } catch {
    problem('_status', 'must be one of draft, published, archived');
    return undefined;
  }
  if (actor) requirePublishIfNeeded(actor, schema.name, undefined, status);
  const createdAt = body._createdAt === undefined ? now : body._createdAt;
  if (typeof createdAt !== 'string' || !DATETIME.test(createdAt) || Number.isNaN(Date.parse(createdAt))) {
    problem('_createdAt', 'must be an ISO 8601 date-time with a time zone');
    return undefined;
  }
  // Stored as UTC with milliseconds, as datetime fields are, so dates compare and sort as text.
  const created = new Date(createdAt);
  const id = body._id === undefined ? uuidv7(created.getTime()) : body._id;
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    problem('_id', 'must be 1–64 characters of A–Z, a–z, 0–9, ".", "_" or "-"');
    return undefined;
  }
  const sent = locale ? replacedData(schema, locale, {}, body) : body;
  const result = validateDocument(schema, sent, true, localeValidation(locale));
  for (const e of result.errors) problem(e.field, e.message);
  // A create would generate these; a bulk insert takes the slug the document brings.
  for (const slug of result.emptySlugs) {
    // Another locale's slug is named as a `locale=*` body names it: `slug.de`.
    const name = slug.at.length > 0 ? `${slug.field.name}.${slug.at[slug.at.length - 1]}` : slug.field.name;
    if (slug.field.required || baseSlug(slug, result.data)) problem(name, 'is required: bulk inserts bring their own slugs');
  }
  if (details.length > before) return undefined;
  return {
    index,
    doc: {
      id,
      type: schema.name,
      status,
      rev: 1,
      createdAt: created.toISOString(),
      updatedAt: created.toISOString(),
      createdBy: by,
      updatedBy: by,
      data: result.data,
    },
    side: sideRows(schema, result, locales),
    references: result.references,
    media: result.media,
  };
}

/** Ids, slugs and unique field values held by more than one document of the call. */
function duplicateValues(schema: CompiledSchema, prepared: readonly Prepared[]): ErrorDetail[] {
  const uniqueFields = schema.fields.filter(isUnique);
  const seen = new Map<string, number>();
  const found: ErrorDetail[] = [];
  const check = (key: string, field: string, item: Prepared) => {
    const first = seen.get(key);
    if (first === undefined) seen.set(key, item.index);
    else found.push({ field: `documents.${item.index}.${field}`, message: `is also the value of documents.${first}` });
  };
  for (const item of prepared) {
    check(`_id\u0000${item.doc.id}`, '_id', item);
    for (const field of uniqueFields) {
      const value = uniqueValue(field, item.doc.data[field.name]);
      if (value !== undefined) check(`${field.name}\u0000${JSON.stringify(value)}`, field.name, item);
    }
  }
  return found;
}

const uniqueValue = (field: FieldDef, value: unknown) => (value === undefined ? undefined : uniqueScalar(field, value));

/** References to missing documents or documents of a type the field does not take; documents of the batch count as existing. */
async function referenceProblems(conn: Conn, schema: CompiledSchema, batch: readonly Prepared[]): Promise<ErrorDetail[]> {
  const types = new Map(batch.map((item) => [item.doc.id, schema.name]));
  const wanted = [...new Set(batch.flatMap((item) => item.references.map((r) => r.id)))].filter((id) => !types.has(id));
  for (const doc of await findDocumentsByIds(conn, wanted)) types.set(doc.id, doc.type);
  const problems: ErrorDetail[] = [];
  for (const item of batch) {
    for (const ref of item.references) {
      const type = types.get(ref.id);
      const field = `documents.${item.index}.${ref.path}`;
      if (type === undefined) problems.push({ field, message: `references a missing document ${ref.id}` });
      else if (!ref.to.includes(type)) problems.push({ field, message: `must reference ${ref.to.join(' or ')}, not ${type}` });
    }
  }
  return problems;
}

/** Media the batch's image and file fields name that are missing or of a type the field does not accept. */
async function mediaProblemsOf(conn: Conn, batch: readonly Prepared[]): Promise<ErrorDetail[]> {
  const media = batch.flatMap((item) => item.media.map((m) => ({ ...m, path: `documents.${item.index}.${m.path}` })));
  if (media.length === 0) return [];
  return mediaProblems(conn, { data: {}, errors: [], references: [], media, emptySlugs: [] });
}
