import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { errors } from '../../errors.js';
import type { ProcessedImage } from '../../media/image-variants.js';
import { isRasterImage, sniffMime } from '../../media/sniff-mime.js';
import { spoolUpload, type SpooledUpload } from '../../media/spool-upload.js';
import { inTransaction } from '../../storage/connection.js';
import { insertMedia, type StoredMedia, type StoredVariant } from '../../storage/media/media-store.js';
import { writeUnlessTaken } from '../../storage/write-unless-taken.js';
import { requireMediaAction } from '../access/policy.js';
import { actorId, type Principal } from '../access/principal.js';
import { uuidv7 } from '../shared/ids.js';
import { mimeAccepted } from '../shared/mime-accepted.js';
import type { Services } from '../services.js';
import { toApiMedia, type ApiMedia } from './media-view.js';
import { sanitizeFilename } from './sanitize-filename.js';
import { checkMediaText, type MediaText } from './media-text.js';
import { mapMediaFailure } from './media-failure.js';
import { checkClientMediaId, reserveClientMediaId, taken } from './client-media-id.js';
import { recordChanges } from '../events/record-changes.js';
import { mediaEvent } from './media-events.js';

/** One part of a multipart body, whatever parsed it. */
export type UploadPart =
  { kind: 'file'; field: string; filename: string; stream: Readable } | { kind: 'field'; field: string; value: string };

/**
 * `POST /media`: reads the parts (the file spooled to disk as it arrives), then stores the upload.
 * The permission is checked before a byte of the body is read.
 */
export async function uploadMedia(svc: Services, actor: Principal, parts: AsyncIterable<UploadPart>): Promise<ApiMedia> {
  requireMediaAction(actor, 'upload');
  let spooled: (SpooledUpload & { filename: string }) | undefined;
  const text: MediaText = {};
  let clientId: string | undefined;
  try {
    for await (const part of parts) {
      if (part.kind === 'file') {
        if (part.field !== 'file') throw errors.validation([{ field: part.field, message: 'unknown field (the file goes in "file")' }]);
        if (spooled) throw errors.validation([{ field: 'file', message: 'only one file per upload' }]);
        spooled = { ...(await mapMediaFailure(spoolUpload(part.stream, svc.config.media.maxFileSize))), filename: part.filename };
      } else if (part.field === 'alt' || part.field === 'title') {
        text[part.field] = part.value;
      } else if (part.field === '_id') {
        // Before or after the file: an import keeps its media's ids (docs/api.md, "Media").
        clientId = checkClientMediaId(part.value);
      } else {
        throw errors.validation([{ field: part.field, message: 'unknown field' }]);
      }
    }
    checkMediaText(text);
    if (!spooled) throw errors.validation([{ field: 'file', message: 'is required' }]);
    if (spooled.size === 0) throw errors.validation([{ field: 'file', message: 'is empty' }]);
    return await storeUpload(svc, actor, spooled, text, clientId);
  } finally {
    if (spooled) await rm(spooled.path, { force: true });
  }
}

/**
 * 1. The type from the bytes, checked against `media.allowedTypes` (415).
 * 2. Raster images: bomb check, variants, placeholder, colour, all before anything is stored (422).
 * 3. The id: generated, or the uploader's, reserved with the keys it will write (409 when taken).
 * 4. Original and variants into the file store, then the row; a failure removes what was stored.
 */
async function storeUpload(
  svc: Services,
  actor: Principal,
  upload: SpooledUpload & { filename: string },
  text: MediaText,
  clientId: string | undefined,
): Promise<ApiMedia> {
  const { media } = svc.config;
  const { mime, ext } = await sniffMime(upload.path);
  if (!mimeAccepted(mime, media.allowedTypes)) throw errors.unsupportedMediaType(`Files of type ${mime} are not accepted here`);

  const image = isRasterImage(mime) ? await processOrRefuse(upload.path, media.variants, media.maxPixels) : undefined;

  const id = clientId ?? uuidv7();
  const key = `${id}.${ext}`;
  const variantKey = (v: { name: string; ext: string }) => `${id}-${v.name}.${v.ext}`;
  const release = clientId ? await reserveClientMediaId(svc, id, [key, ...(image?.variants ?? []).map(variantKey)]) : undefined;
  const stored: string[] = [];
  try {
    await svc.files.put(key, createReadStream(upload.path), mime);
    stored.push(key);
    const variants: Record<string, StoredVariant> = {};
    for (const v of image?.variants ?? []) {
      const vkey = variantKey(v);
      await svc.files.put(vkey, v.data, v.contentType);
      stored.push(vkey);
      variants[v.name] = { key: vkey, mimeType: v.contentType, width: v.width, height: v.height, size: v.data.length };
    }
    const at = svc.now().toISOString();
    const record: StoredMedia = {
      id,
      filename: key,
      originalFilename: sanitizeFilename(upload.filename),
      mimeType: mime,
      size: upload.size,
      sha256: upload.sha256,
      width: image?.width ?? null,
      height: image?.height ?? null,
      alt: text.alt ?? null,
      title: text.title ?? null,
      variants,
      placeholder: image?.placeholder ?? null,
      dominantColor: image?.dominantColor ?? null,
      focalPoint: null,
      createdAt: at,
      updatedAt: at,
      createdBy: actorId(actor),
    };
    // The record and its `media.created` event commit together.
    const insert = await inTransaction(svc.database, async (conn) => {
      const written = await writeUnlessTaken(conn, () => insertMedia(conn, record));
      if (written.written) await recordChanges(svc, conn, [mediaEvent(svc.config, 'media.created', record, at)]);
      return written;
    });
    if (!insert.written) throw taken(id);
    return toApiMedia(svc.config, record);
  } catch (err) {
    await svc.files
      .delete(stored)
      .catch((e: unknown) => svc.log.error({ err: e, keys: stored }, 'media: could not remove the files of a failed upload'));
    throw err;
  } finally {
    release?.();
  }
}

async function processOrRefuse(
  path: string,
  variants: Services['config']['media']['variants'],
  maxPixels: number,
): Promise<ProcessedImage> {
  // sharp (libvips) costs about 27 MB of memory: loaded with the first image, not at start-up.
  const { processImage } = await import('../../media/image-variants.js');
  return mapMediaFailure(processImage(path, { variants, maxPixels }));
}
