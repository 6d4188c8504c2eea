import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { DocumentAccessMode } from '../../../domain/access/policy.js';
import { deleteDocument } from '../../../domain/documents/delete-document.js';
import { discardDraft } from '../../../domain/documents/discard-draft.js';
import { publishDocument, unpublishDocument } from '../../../domain/documents/publish/publish-document.js';
import { issuePreview } from '../../../domain/documents/preview/issue-preview.js';
import { requireDocumentAction, requireDocumentPreview } from '../../../domain/documents/document-permission.js';
import type { ApiDocument } from '../../../domain/documents/document-view.js';
import { getDocument, listDocuments } from '../../../domain/documents/read-documents.js';
import { createSchedule } from '../../../domain/schedules/manage-schedules.js';
import { listRevisions, restoreRevision } from '../../../domain/documents/revisions.js';
import { createDocument } from '../../../domain/documents/create-document.js';
import { patchDocument, replaceDocument } from '../../../domain/documents/update-document.js';
import type { Services } from '../../../domain/services.js';
import { errors } from '../../../errors.js';
import { documentEtag, etagMatches, parseIfMatch } from '../../etag.js';
import type { PermissionCheck } from '../../plugins/authenticate.js';
import { registerResponseCache } from '../../plugins/response-cache.js';
import { errorResponses } from '../../schemas/common.js';
import { listParamsOf } from './list-params.js';
import * as S from './schemas.js';
import { DOCUMENT_ROUTE_DOCS as D, type RouteDoc } from './route-docs.js';
import { Schedule, ScheduleBody } from '../schedules/schemas.js';
import { data } from '../../schemas/common.js';

type DocRequest = FastifyRequest<{ Params: Static<typeof S.DocParams> }>;
type WriteRequest = FastifyRequest<{ Params: Static<typeof S.DocParams>; Querystring: Static<typeof S.WriteQuery> }>;

const ifMatch = (req: FastifyRequest) => parseIfMatch(req.headers['if-match']);

/** A PUT or PATCH's input: the body, `If-Match` read both as main and as draft tags, `?draft=true`. */
const writeInput = (req: WriteRequest, mode: DocumentAccessMode) => ({
  ...req.params,
  mode,
  body: documentBody(req),
  expectedRev: ifMatch(req),
  draft: req.query.draft === 'true',
  locale: req.query.locale,
  expectedDraftRev: parseIfMatch(req.headers['if-match'], 'draft'),
});

/** The document is the body: a write without one (or with an empty JSON body) is malformed, 400. */
function documentBody(req: FastifyRequest): unknown {
  if (req.body === undefined) throw errors.invalidInput('Request body is empty: send the document as JSON');
  return req.body;
}

const versionOf = (doc: ApiDocument) => (doc._version === 'draft' ? 'draft' : 'main');

function sendDocument(reply: FastifyReply, doc: ApiDocument, status = 200) {
  return reply
    .status(status)
    .header('etag', documentEtag(doc._rev, versionOf(doc)))
    .send({ data: doc });
}

/**
 * The documents API, mounted twice: `/documents` (public reads by default) and `/collections`
 * (every call permission-checked). The routes only translate HTTP; the operations decide.
 */
export async function documentRoutes(app: FastifyInstance, { svc, mode }: { svc: Services; mode: DocumentAccessMode }) {
  const base = `/${mode}/:type`;
  const responses = { response: errorResponses };
  // Writes ask for `<type>:write`/`delete` before the body is read (plugins/authenticate.ts).
  const may = (action: 'write' | 'delete' | 'publish'): { permission: PermissionCheck } => ({
    permission: (p, params) => requireDocumentAction(svc, p, params.type, action),
  });
  if (svc.config.documents.responseCache) {
    registerResponseCache(app, svc, { mode, ttlMs: 2_000, maxEntries: 2_000, maxEntryBytes: 256 * 1024, maxTotalBytes: 16 * 1024 * 1024 });
  }

  // The list, with a trailing slash too (`/documents/post/`); only here, so that no other path
  // (`/media/files/..` resolved to `/media/`, say) turns into a list by losing its last segment.
  for (const url of [base, `${base}/`]) {
    app.get<{ Params: Static<typeof S.TypeParams> }>(url, { schema: { ...D.list, params: S.TypeParams, ...responses } }, async (req) =>
      listDocuments(svc, req.principal, { type: req.params.type, mode, query: listParamsOf(req.query as Record<string, unknown>) }),
    );
  }

  app.get<{ Params: Static<typeof S.DocParams>; Querystring: Static<typeof S.GetQuery> }>(
    `${base}/:id`,
    { schema: { ...D.get, params: S.DocParams, querystring: S.GetQuery, ...responses } },
    async (req, reply) => {
      const doc = await getDocument(svc, req.principal, { ...req.params, mode, ...req.query });
      const inm = req.headers['if-none-match'];
      if (inm && etagMatches(inm, doc._rev, versionOf(doc)))
        return reply
          .status(304)
          .header('etag', documentEtag(doc._rev, versionOf(doc)))
          .send();
      return sendDocument(reply, doc);
    },
  );

  app.post<{ Params: Static<typeof S.TypeParams>; Querystring: Static<typeof S.CreateQuery> }>(
    base,
    { config: may('write'), schema: { ...D.create, params: S.TypeParams, querystring: S.CreateQuery, ...responses } },
    async (req, reply) => {
      const doc = await createDocument(svc, req.principal, {
        type: req.params.type,
        mode,
        body: documentBody(req),
        locale: req.query.locale,
      });
      reply.header('location', `${req.url.split('?')[0]}/${encodeURIComponent(doc._id)}`);
      return sendDocument(reply, doc, 201);
    },
  );

  const writeSchema = (doc: RouteDoc) => ({
    config: may('write'),
    schema: { ...doc, params: S.DocParams, querystring: S.WriteQuery, ...responses },
  });
  app.put(`${base}/:id`, writeSchema(D.replace), async (req: WriteRequest, reply) =>
    sendDocument(reply, await replaceDocument(svc, req.principal, writeInput(req, mode))),
  );
  app.patch(`${base}/:id`, writeSchema(D.patch), async (req: WriteRequest, reply) =>
    sendDocument(reply, await patchDocument(svc, req.principal, writeInput(req, mode))),
  );

  app.post<{ Params: Static<typeof S.DocParams>; Body: Static<typeof S.PublishBody>; Querystring: Static<typeof S.PublishQuery> }>(
    `${base}/:id/publish`,
    {
      config: may('publish'),
      schema: { ...D.publish, params: S.DocParams, body: S.PublishBody, querystring: S.PublishQuery, ...responses },
    },
    async (req, reply) => {
      const result = await publishDocument(svc, req.principal, {
        ...req.params,
        ...req.body,
        force: req.query.force === 'true',
      });
      return '_id' in result ? sendDocument(reply, result as ApiDocument) : { data: result };
    },
  );

  app.post<{ Params: Static<typeof S.DocParams> }>(
    `${base}/:id/unpublish`,
    { config: may('publish'), schema: { ...D.unpublish, params: S.DocParams, ...responses } },
    async (req, reply) => sendDocument(reply, await unpublishDocument(svc, req.principal, req.params)),
  );

  // docs/schedules.md: a publish or unpublish at a later instant, run as its creator.
  app.post<{ Params: Static<typeof S.DocParams>; Body: Static<typeof ScheduleBody> }>(
    `${base}/:id/schedule`,
    {
      config: may('publish'),
      schema: { ...D.schedule, params: S.DocParams, body: ScheduleBody, response: { 201: data(Schedule), ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send({ data: await createSchedule(svc, req.principal, { ...req.params, ...req.body }) }),
  );

  // A preview token is a read: read permission on the type, asked before the body (none is read).
  app.post<{ Params: Static<typeof S.DocParams> }>(
    `${base}/:id/preview`,
    {
      config: { permission: (p, params) => requireDocumentPreview(svc, p, params.type) },
      schema: { ...D.preview, params: S.DocParams, response: { 201: S.PreviewGrant, ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send({ data: await issuePreview(svc, req.principal, { ...req.params, mode }) }),
  );

  app.delete(
    `${base}/:id/draft`,
    { config: may('write'), schema: { ...D.discardDraft, params: S.DocParams, ...responses } },
    async (req: DocRequest) => {
      await discardDraft(svc, req.principal, { ...req.params, expectedDraftRev: parseIfMatch(req.headers['if-match'], 'draft') });
      return { success: true };
    },
  );

  app.delete<{ Params: Static<typeof S.DocParams>; Querystring: Static<typeof S.DeleteQuery> }>(
    `${base}/:id`,
    { config: may('delete'), schema: { ...D.delete, params: S.DocParams, querystring: S.DeleteQuery, ...responses } },
    async (req) => {
      await deleteDocument(svc, req.principal, { ...req.params, mode, force: req.query.force === 'true', expectedRev: ifMatch(req) });
      return { success: true };
    },
  );

  app.get<{ Params: Static<typeof S.DocParams>; Querystring: Static<typeof S.PagingQuery> }>(
    `${base}/:id/revisions`,
    { schema: { ...D.revisions, params: S.DocParams, querystring: S.PagingQuery, ...responses } },
    async (req) => listRevisions(svc, req.principal, { ...req.params, mode, ...req.query }),
  );

  app.post<{ Params: Static<typeof S.RevParams>; Querystring: Static<typeof S.RestoreQuery> }>(
    `${base}/:id/revisions/:rev/restore`,
    { config: may('write'), schema: { ...D.restore, params: S.RevParams, querystring: S.RestoreQuery, ...responses } },
    async (req, reply) =>
      sendDocument(
        reply,
        await restoreRevision(svc, req.principal, { ...req.params, rev: Number(req.params.rev), mode, kind: req.query.kind }),
      ),
  );
}
