import type { FieldDef } from '../../config/types.js';
import { errors, type ErrorDetail } from '../../errors.js';
import { inTransaction, type Conn } from '../../storage/connection.js';
import {
  findDocument,
  findDocumentsByIds,
  insertDocument,
  lockSlug,
  typeHasDocuments,
  updateDocument,
  countWithSuffix,
  valuesWithSuffix,
  valueTaken,
  type SideRows,
  type StoredDocument,
} from '../../storage/documents-store.js';
import { insertDocumentChecked, updateDocumentChecked, type InsertGuards } from '../../storage/checked-document-writes.js';
import { findMediaByIds } from '../../storage/media-store.js';
import { requirePublishIfNeeded, requireSchemaAction, type DocumentAccessMode } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { uuidv7 } from '../shared/ids.js';
import { mimeAccepted } from '../shared/mime-accepted.js';
import { mergePatch } from '../shared/merge-patch.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import type { Services } from '../services.js';
import { toApiDocument, type ApiDocument } from './document-view.js';
import { schemaOr404 } from './schema-or-404.js';
import { searchText } from './search-text.js';
import { slugify } from './slugify.js';
import { STATUSES } from './system-fields.js';
import { ID_PATTERN, validateDocument, type ValidationResult } from './validate-document.js';

export interface WriteInput {
  type: string;
  mode: DocumentAccessMode;
  body: unknown;
}

export interface UpdateInput extends WriteInput {
  id: string;
  /** The `If-Match` header, when sent. */
  ifMatch?: string;
}

/** `POST /documents/:type`. */
export async function createDocument(svc: Services, actor: Principal, input: WriteInput): Promise<ApiDocument> {
  // 1. Type, write permission, body shape.
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'write');
  const body = asObject(input.body);
  // 2. Status (publishing needs the publish permission too) and id.
  const status = statusOf(body, 'draft');
  requirePublishIfNeeded(actor, schema.name, undefined, status);
  const id = body._id === undefined ? uuidv7() : body._id;
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw errors.validation([{ field: '_id', message: 'must be 1–64 characters of A–Z, a–z, 0–9, ".", "_" or "-"' }]);
  }
  // 3. Fields, with defaults.
  const result = validateDocument(schema, body, true);
  if (result.errors.length > 0) throw errors.validation(result.errors);

  const at = svc.now().toISOString();
  // `data` is result.data itself: slugs generated while writing land in the stored document.
  const doc: StoredDocument = {
    id,
    type: schema.name,
    status,
    rev: 1,
    createdAt: at,
    updatedAt: at,
    createdBy: actorId(actor),
    updatedBy: actorId(actor),
    data: result.data,
  };
  // 4. The fast path: one guarded insert, which writes only when every check would pass. When it
  //    does not write, the checks below run one by one to say why (or to find a free slug).
  //    A write racing this one can take a slug or unique value between the checks and the insert;
  //    then it all runs again, and either finds the next free slug or names the taken value.
  //    A singleton's create always takes the slow path: it is rare, and its check costs every other create.
  for (
    let attempt = 1;
    schema.singleton ||
    !(await writeIfValid(svc, schema, result, doc, (side, guards) => insertDocumentChecked(svc.database, doc, side, guards)));
    attempt++
  ) {
    try {
      await inTransaction(svc.database, async (conn) => {
        // A generated UUIDv7 cannot be taken; a client's id can.
        if (body._id !== undefined && (await findDocument(conn, id)))
          throw errors.conflict(`A document with _id ${id} exists`, [{ field: '_id', message: 'is taken' }]);
        if (schema.singleton && (await typeHasDocuments(conn, schema.name))) {
          throw errors.conflict(`${schema.name} is a singleton and already has its document`);
        }
        await checkAndWrite(conn, schema, result, id, () => insertDocument(conn, doc, sideRows(schema, result)));
      });
      break;
    } catch (err) {
      if (!(err instanceof LostRace)) throw err;
      if (attempt === MAX_ATTEMPTS) throw lostRaceConflict();
    }
  }
  // 5. Committed: caches of this content are now out of date.
  svc.changes.bump(schema.name);
  return toApiDocument(doc);
}

/**
 * Writes the document (`write`: the checked insert or update) when its references exist with the
 * right types, its media exist and its unique values (id, slugs, unique fields) are free; false,
 * with nothing written, otherwise. Empty slugs are tried in their plain form; on false they are
 * taken out again for the slow path.
 */
async function writeIfValid(
  svc: Services,
  schema: CompiledSchema,
  result: ValidationResult,
  doc: StoredDocument,
  write: (side: SideRows, guards: InsertGuards) => Promise<boolean>,
): Promise<boolean> {
  // A media type never changes after upload, so the accept check may run before the insert; the
  // insert still checks that the media exist.
  if (result.media.length > 0 && !(await mediaAccepted(svc.database, result))) return false;
  const slugs: FieldDef[] = [];
  for (const field of result.emptySlugs) {
    const base = baseSlug(field, result.data);
    if (!base) return false; // a required slug with nothing to make it from: the slow path says so
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

async function mediaAccepted(conn: Conn, result: ValidationResult): Promise<boolean> {
  const found = new Map((await findMediaByIds(conn, [...new Set(result.media.map((m) => m.id))])).map((m) => [m.id, m.mimeType]));
  return result.media.every((ref) => {
    const mime = found.get(ref.id);
    return mime !== undefined && mimeAccepted(mime, ref.accept);
  });
}

/** `PUT /documents/:type/:id`: replaces every non-system field; `_status` kept unless given. */
export function replaceDocument(svc: Services, actor: Principal, input: UpdateInput): Promise<ApiDocument> {
  return updateWith(svc, actor, input, (_current, body) => body);
}

/** `PATCH /documents/:type/:id`: JSON Merge Patch over the current fields. */
export function patchDocument(svc: Services, actor: Principal, input: UpdateInput): Promise<ApiDocument> {
  return updateWith(svc, actor, input, (current, patch) => mergePatch(current.data, stripSystem(patch)) as Record<string, unknown>);
}

/** Writes `data` (with optional `_status`) as the next revision of a document; used by restore too. */
export async function updateWith(
  svc: Services,
  actor: Principal,
  input: UpdateInput,
  nextData: (current: StoredDocument, body: Record<string, unknown>) => Record<string, unknown>,
): Promise<ApiDocument> {
  // 1. Type, write permission, body shape.
  const schema = schemaOr404(svc, input.type);
  requireSchemaAction(actor, schema.name, 'write');
  const body = asObject(input.body);

  // 2. From the current version to the next: If-Match, the status rule, the new fields validated as a whole.
  const next = (current: StoredDocument | undefined) => {
    if (!current || current.type !== schema.name) throw errors.notFound('Document not found');
    if (input.ifMatch !== undefined && !etagMatches(input.ifMatch, current.rev)) throw errors.preconditionFailed();
    const status = statusOf(body, current.status);
    requirePublishIfNeeded(actor, schema.name, current.status, status);
    const result = validateDocument(schema, nextData(current, body), false);
    if (result.errors.length > 0) throw errors.validation(result.errors);
    const doc: StoredDocument = {
      ...current,
      status,
      rev: current.rev + 1,
      updatedAt: svc.now().toISOString(),
      updatedBy: actorId(actor),
      data: result.data,
    };
    return { current, doc, result };
  };

  // 3. The fast path: read without a lock, then one write that happens only if the document is
  //    still at the revision read and every check would pass. Any refusal, and any error from a
  //    read that may already be stale, goes to the locking path, which has the last word.
  const fast = await findDocument(svc.database, input.id)
    .then(next, () => undefined)
    .catch(() => undefined);
  if (
    fast &&
    (await writeIfValid(svc, schema, fast.result, fast.doc, (side, guards) =>
      updateDocumentChecked(svc.database, fast.doc, fast.current.rev, side, guards),
    ))
  ) {
    svc.changes.bump(schema.name);
    return toApiDocument(fast.doc);
  }

  // 4. The locking path: the current version locked for this transaction, then each check in turn;
  //    the rev check in the write makes a lost update impossible even without the lock.
  const updated = await inTransaction(svc.database, async (conn) => {
    const { current, doc, result } = next(await findDocument(conn, input.id, { forUpdate: true }));
    const written = await checkAndWrite(conn, schema, result, current.id, () =>
      updateDocument(conn, doc, current.rev, sideRows(schema, result)),
    );
    if (!written) throw errors.conflict('The document was changed by another write; retry');
    return toApiDocument(doc);
  }).catch((err: unknown) => {
    throw err instanceof LostRace ? lostRaceConflict() : err;
  });
  // 5. Committed: caches of this content are now out of date.
  svc.changes.bump(schema.name);
  return updated;
}

export function etagMatches(header: string, rev: number): boolean {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === `"${rev}"`);
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.validation([{ field: '(body)', message: 'must be a JSON object' }], 'The body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function stripSystem(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([k]) => !k.startsWith('_')));
}

function statusOf(body: Record<string, unknown>, fallback: string): string {
  const s = body._status;
  if (s === undefined || s === null) return fallback;
  if (typeof s !== 'string' || !(STATUSES as readonly string[]).includes(s)) {
    throw errors.validation([{ field: '_status', message: `must be one of ${STATUSES.join(', ')}` }]);
  }
  return s;
}

/**
 * Checks what needs the database, then writes: references first (one query for all of them),
 * then slugs and unique values. Those are asked for before the write, except where a refused
 * statement leaves the transaction usable (SQLite): there the unique indexes answer during the
 * write itself, each empty slug is tried as its plain form, and only a refusal costs the queries
 * that find the taken value or the next free slug, and one more try.
 */
async function checkAndWrite<T>(
  conn: Conn,
  schema: CompiledSchema,
  result: ValidationResult,
  selfId: string,
  write: () => Promise<T>,
): Promise<T> {
  await checkReferences(conn, schema, result, selfId);
  await checkMedia(conn, result);
  const bases = new Map(result.emptySlugs.map((field) => [field, baseSlug(field, result.data)]));
  const missing = [...bases].filter(([field, base]) => !base && field.required);
  if (missing.length > 0) throw errors.validation(missing.map(([field]) => ({ field: field.name, message: 'is required' })));

  if (conn.dialect.keepsTransactionAfterFailedStatement) {
    for (const [field, base] of bases) if (base) result.data[field.name] = { current: base.slug };
    try {
      return await write();
    } catch (err) {
      if (!conn.dialect.isUniqueViolation(err)) throw err;
      for (const field of bases.keys()) delete result.data[field.name];
    }
  }
  for (const [field, base] of bases) {
    if (!base) continue;
    await lockSlug(conn, schema.name, field.name, base.stem);
    result.data[field.name] = { current: await freeSlug(conn, schema, field, base, selfId) };
  }
  await checkUnique(conn, schema, result, selfId, [...bases.keys()]);
  return guardUnique(conn, write);
}

async function checkReferences(conn: Conn, schema: CompiledSchema, result: ValidationResult, selfId: string): Promise<void> {
  if (result.references.length === 0) return;
  const details: ErrorDetail[] = [];
  const ids = [...new Set(result.references.map((r) => r.id))].filter((id) => id !== selfId);
  const found = new Map((await findDocumentsByIds(conn, ids)).map((d) => [d.id, d.type]));
  found.set(selfId, schema.name);
  for (const ref of result.references) {
    const type = found.get(ref.id);
    if (type === undefined) details.push({ field: ref.path, message: `references a missing document ${ref.id}` });
    else if (!ref.to.includes(type)) details.push({ field: ref.path, message: `must reference ${ref.to.join(' or ')}, not ${type}` });
  }
  if (details.length > 0) throw errors.validation(details);
}

/** Image and file fields hold ids of existing media whose type the field accepts (one query). */
async function checkMedia(conn: Conn, result: ValidationResult): Promise<void> {
  if (result.media.length === 0) return;
  const found = new Map((await findMediaByIds(conn, [...new Set(result.media.map((m) => m.id))])).map((m) => [m.id, m.mimeType]));
  const details: ErrorDetail[] = [];
  for (const ref of result.media) {
    const mime = found.get(ref.id);
    if (mime === undefined) details.push({ field: ref.path, message: `references a missing media item ${ref.id}` });
    else if (!mimeAccepted(mime, ref.accept)) details.push({ field: ref.path, message: `must be ${ref.accept.join(' or ')}, not ${mime}` });
  }
  if (details.length > 0) throw errors.validation(details);
}

/** 409 with one detail per unique or slug value (given, not generated) another document of the type holds. */
async function checkUnique(
  conn: Conn,
  schema: CompiledSchema,
  result: ValidationResult,
  selfId: string,
  generated: readonly FieldDef[],
): Promise<void> {
  const taken: ErrorDetail[] = [];
  for (const field of schema.fields) {
    const value = result.data[field.name];
    if (value === undefined || !(field.unique || field.type === 'slug') || generated.includes(field)) continue;
    const path = field.type === 'slug' ? [field.name, 'current'] : [field.name];
    const scalar = field.type === 'slug' ? (value as { current: string }).current : (value as string | number | boolean);
    if (await valueTaken(conn, schema.name, path, scalar, selfId)) taken.push({ field: field.name, message: 'is already taken' });
  }
  if (taken.length > 0) throw errors.conflict('A unique value is already taken', taken);
}

interface BaseSlug {
  slug: string;
  /** The slug cut to leave room for a `-N` suffix within the length limit. */
  stem: string;
}

/** The slug of the field's `source`, before any suffix; undefined when there is nothing to slugify. */
function baseSlug(field: FieldDef, data: Record<string, unknown>): BaseSlug | undefined {
  const source = field.source ? data[field.source] : undefined;
  if (typeof source !== 'string') return undefined;
  const max = Math.min(field.maxLength ?? 96, 96);
  const slug = slugify(source, max);
  if (!slug) return undefined;
  return { slug, stem: slug.slice(0, max - 7).replace(/-+$/, '') || slug };
}

/** The base slug, or with `-2`, `-3`… appended until it is free within the type (constant queries, not one per candidate). */
async function freeSlug(conn: Conn, schema: CompiledSchema, field: FieldDef, base: BaseSlug, selfId: string): Promise<string> {
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

/** Computed when the write runs, so slugs generated on the way are in the search text. */
function sideRows(schema: CompiledSchema, result: ValidationResult): SideRows {
  return {
    refs: result.references.map((r) => ({ targetId: r.id, path: r.path })),
    media: result.media.map((m) => ({ targetId: m.id, path: m.path })),
    searchText: searchText(schema, result.data),
  };
}

/** A unique index that fires under a race is still a conflict, not a server error. */
async function guardUnique<T>(conn: Conn, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (conn.dialect.isUniqueViolation(err)) throw new LostRace();
    throw err;
  }
}

/** A unique index refused a write whose checks had passed: a concurrent write took the value first. */
class LostRace extends Error {}

const MAX_ATTEMPTS = 3;

const lostRaceConflict = () => errors.conflict('A unique value is already taken (concurrent write)');
