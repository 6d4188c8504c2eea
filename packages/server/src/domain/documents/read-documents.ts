import { errors } from '../../errors.js';
import { countDocuments, findDocument, listDocuments as listRows } from '../../storage/documents-store.js';
import { denyRead, readScope, type DocumentAccessMode } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { projectFields, toApiDocument, type ApiDocument } from './document-view.js';
import { expandDocuments, parseExpand } from './expand.js';
import { parseListQuery } from './parse-list-query.js';
import { schemaOr404 } from './schema-or-404.js';

export interface ListResult {
  data: ApiDocument[];
  meta: { total: number; limit: number; offset: number };
}

/** `GET /documents/:type` and `GET /collections/:type`. */
export async function listDocuments(
  svc: Services,
  actor: Principal,
  input: { type: string; mode: DocumentAccessMode; query: Record<string, unknown> },
): Promise<ListResult> {
  // 1. The type exists and the caller may read it (all statuses, or published only).
  const schema = schemaOr404(svc, input.type);
  const scope = readScope(actor, schema, input.mode, svc.config.documents.publicRead);
  if (scope === 'none') denyRead(actor, input.mode);
  // 2. Query parameters, typed by the schema (400 on anything unknown or malformed).
  const q = parseListQuery(schema, input.query);
  const expand = parseExpand(svc.schemas, schema.name, q.expand);
  // 3. One page and the total, then expansion one level per query.
  const listQuery = { type: schema.name, statuses: scope === 'published' ? ['published'] : undefined, ...q };
  const [rows, total] = await Promise.all([listRows(svc.database, listQuery), countDocuments(svc.database, listQuery)]);
  const data = rows.map(toApiDocument);
  await expandDocuments(svc, actor, input.mode, data, expand);
  return { data: data.map((d) => projectFields(d, q.fields)), meta: { total, limit: q.limit, offset: q.offset } };
}

/** `GET /documents/:type/:id`: missing, of another type or not visible to the caller all read as 404. */
export async function getDocument(
  svc: Services,
  actor: Principal,
  input: { type: string; id: string; mode: DocumentAccessMode; expand?: string; fields?: string },
): Promise<ApiDocument> {
  const schema = schemaOr404(svc, input.type);
  const scope = readScope(actor, schema, input.mode, svc.config.documents.publicRead);
  if (scope === 'none') denyRead(actor, input.mode);
  const expand = parseExpand(svc.schemas, schema.name, input.expand);
  const fields = input.fields ? parseListQuery(schema, { fields: input.fields }).fields : undefined;
  const stored = await findDocument(svc.database, input.id);
  if (!stored || stored.type !== schema.name || (scope === 'published' && stored.status !== 'published')) {
    throw errors.notFound('Document not found');
  }
  const doc = toApiDocument(stored);
  await expandDocuments(svc, actor, input.mode, [doc], expand);
  return projectFields(doc, fields);
}
