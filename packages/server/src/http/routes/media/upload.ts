import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { uploadMedia, type UploadPart } from '../../../domain/media/upload-media.js';
import type { Services } from '../../../domain/services.js';
import { requireMediaAction } from '../../../domain/access/policy.js';
import { AppError, errors } from '../../../errors.js';
import { refuseBadText } from '../../plugins/input-guard.js';
import { data, errorResponses } from '../../schemas/common.js';
import { Media } from './schemas.js';

/** `POST /media`: multipart with `file`, `alt`, `title` and an optional `_id`. Registered in its own scope with the multipart parser. */
export async function mediaUploadRoute(app: FastifyInstance, { svc }: { svc: Services }) {
  await app.register(multipart);
  app.post(
    '/media',
    // Sign-in and media:upload are checked before the body is read: a refused upload is not received.
    {
      schema: { response: { 201: data(Media), ...errorResponses } },
      config: { auth: true, permission: (p) => requireMediaAction(p, 'upload') },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw errors.invalidInput('Send the file as multipart/form-data');
      const media = await uploadMedia(svc, req.principal, partsOf(req, svc.config.media.maxFileSize));
      return reply.status(201).send({ data: media });
    },
  );
}

/**
 * The request's parts in the domain's shape. The parser's limits sit just above ours so our own
 * check answers first; a malformed body becomes 400 rather than an internal error.
 */
async function* partsOf(req: FastifyRequest, maxFileSize: number): AsyncGenerator<UploadPart> {
  const parts = req.parts({ limits: { fileSize: maxFileSize + 1, files: 2, fields: 10, fieldSize: 16_384, parts: 12, headerPairs: 20 } });
  try {
    for await (const part of parts) {
      // RFC 7578 §4.2: every part names its field; one that does not is a malformed body.
      if (!part.fieldname)
        throw errors.invalidInput('Malformed multipart body: a part has no name (Content-Disposition: form-data; name="…")');
      // The API's one text rule (docs/api.md, "Errors") for what no hook sees: names, values, file names.
      refuseBadText(part.fieldname, 'body.(key)');
      if (part.type === 'file') {
        refuseBadText(part.filename ?? '', `body.${part.fieldname} (filename)`);
        yield { kind: 'file', field: part.fieldname, filename: part.filename ?? '', stream: part.file };
      } else {
        const value = String(part.value);
        refuseBadText(value, `body.${part.fieldname}`);
        yield { kind: 'field', field: part.fieldname, value };
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; statusCode?: number; message?: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw errors.payloadTooLarge();
    if (e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FILES_LIMIT' || e.code === 'FST_FIELDS_LIMIT') {
      throw errors.validation([{ field: '(body)', message: 'too many parts: send one file and at most _id, alt and title' }]);
    }
    if (e.statusCode !== undefined && e.statusCode >= 500) throw err;
    throw errors.invalidInput(`Malformed multipart body: ${e.message ?? 'unreadable'}`);
  }
}
