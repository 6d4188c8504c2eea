import type { FastifyInstance } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { deleteMedia } from '../../../domain/media/delete-media.js';
import { getMedia, listMedia } from '../../../domain/media/read-media.js';
import { updateMedia } from '../../../domain/media/update-media.js';
import type { Services } from '../../../domain/services.js';
import { requireMediaAction } from '../../../domain/access/policy.js';
import { data, errorResponses, Meta, Success } from '../../schemas/common.js';
import { mediaFileRoutes } from './files.js';
import { DeleteQuery, Media, MediaIdParams, MediaListQuery, MediaPatchBody } from './schemas.js';
import { mediaUploadRoute } from './upload.js';

/** The media library: `/media` (list, upload), `/media/:id` (read, edit, delete), `/media/files/:key` (the bytes). */
export async function mediaRoutes(app: FastifyInstance, { svc }: { svc: Services }) {
  await app.register(mediaFileRoutes, { svc });
  await app.register(mediaUploadRoute, { svc });

  app.get<{ Querystring: Static<typeof MediaListQuery> }>(
    '/media',
    { schema: { querystring: MediaListQuery, response: { 200: Type.Object({ data: Type.Array(Media), meta: Meta }), ...errorResponses } } },
    async (req) => listMedia(svc, req.principal, req.query),
  );
  app.get<{ Params: Static<typeof MediaIdParams> }>(
    '/media/:id',
    { schema: { params: MediaIdParams, response: { 200: data(Media), ...errorResponses } } },
    async (req) => ({ data: await getMedia(svc, req.principal, req.params.id) }),
  );
  app.patch<{ Params: Static<typeof MediaIdParams>; Body: Static<typeof MediaPatchBody> }>(
    '/media/:id',
    {
      schema: { params: MediaIdParams, body: MediaPatchBody, response: { 200: data(Media), ...errorResponses } },
      config: { auth: true, permission: (p) => requireMediaAction(p, 'edit') },
    },
    async (req) => ({ data: await updateMedia(svc, req.principal, req.params.id, req.body) }),
  );
  app.delete<{ Params: Static<typeof MediaIdParams>; Querystring: Static<typeof DeleteQuery> }>(
    '/media/:id',
    {
      schema: { params: MediaIdParams, querystring: DeleteQuery, response: { 200: Success, ...errorResponses } },
      config: { auth: true, permission: (p) => requireMediaAction(p, 'delete') },
    },
    async (req) => {
      await deleteMedia(svc, req.principal, { id: req.params.id, force: req.query.force === true });
      return { success: true as const };
    },
  );
}
