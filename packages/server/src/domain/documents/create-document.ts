import { errors } from '../../errors.js';
import { findDocument, typeHasDocuments, type StoredDocument } from '../../storage/documents/document-rows.js';
import { requirePublishIfNeeded, requireSchemaAction, type DocumentAccessMode } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { uuidv7 } from '../shared/ids.js';
import type { Services } from '../services.js';
import { asObject, statusOf } from './document-body.js';
import { toApiDocument, type ApiDocument } from './document-view.js';
import { schemaOr404 } from './schema-or-404.js';
import { ID_PATTERN, validateDocument } from './validate-document.js';
import { mainVersion } from './write/main-version.js';
import { writeDocument } from './write/write-pipeline.js';
import { documentLocale, localeValidation, localized, replacedData } from '../locales/document-locales.js';

export interface WriteInput {
  type: string;
  mode: DocumentAccessMode;
  body: unknown;
  /** `?locale=` (docs/localization.md, "Writes"): which locale the body's localized fields are; absent: the default. */
  locale?: string;
}

/** A create that loses a race for a unique value to a concurrent write tries again (a slug moves on). */
const CREATE_ATTEMPTS = 3;

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
  // 3. Fields, with defaults (localized ones in the locale written, docs/localization.md).
  const locale = documentLocale(svc, input.locale);
  const sent = locale ? replacedData(schema, locale, {}, body) : body;
  const fields = validateDocument(schema, sent, true, localeValidation(locale));
  if (fields.errors.length > 0) throw errors.validation(fields.errors);

  const at = svc.now().toISOString();
  // `data` is fields.data itself: slugs generated while writing land in the stored document.
  const doc: StoredDocument = {
    id,
    type: schema.name,
    status,
    rev: 1,
    createdAt: at,
    updatedAt: at,
    createdBy: actorId(actor),
    updatedBy: actorId(actor),
    data: fields.data,
  };
  // 4. Written by the pipeline. A singleton's create skips the fast path: it is rare, and its
  //    check would cost every other create.
  const written = await writeDocument(svc, {
    schema,
    target: mainVersion,
    kind: 'insert',
    fastPath: !schema.singleton,
    attempts: CREATE_ATTEMPTS,
    decide: () => ({ kind: 'insert', doc, fields }),
    async lockedChecks(conn) {
      // A generated UUIDv7 cannot be taken; a client's id can.
      if (body._id !== undefined && (await findDocument(conn, id)))
        throw errors.conflict(`A document with _id ${id} exists`, [{ field: '_id', message: 'is taken' }]);
      if (schema.singleton && (await typeHasDocuments(conn, schema.name))) {
        throw errors.conflict(`${schema.name} is a singleton and already has its document`);
      }
    },
  });
  return localized(svc, toApiDocument(written.doc), locale);
}
