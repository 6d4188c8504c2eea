import type { IncomingHttpHeaders } from 'node:http';
import { errors, isAppError } from '../../errors.js';
import { inTransaction } from '../../storage/connection.js';
import { isSafeKey } from '../../media/assert-safe-key.js';
import { transformImage } from '../../media/transform-image.js';
import { findMedia } from '../../storage/media/media-store.js';
import { recordTransform } from '../../storage/media/media-transforms-store.js';
import { requireMediaRead } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import type { Services } from '../services.js';
import { mapMediaFailure } from './media-failure.js';
import { mediaFile, type MediaFile } from './open-media-file.js';
import { parseTransform, resolveFormat, transformKey } from './transform-params.js';

/** Raster formats sharp decodes for transforms; SVG and the rest are served as stored only. */
const TRANSFORMABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff', 'image/heif']);

/** Quality when none is asked: AVIF holds up at a lower number than WebP and JPEG. */
const DEFAULT_QUALITY = { webp: 80, jpeg: 80, avif: 60, png: 100 } as const;

export interface TransformedFile {
  file: MediaFile;
  /** `format=auto` chose by `Accept`: caches must key on it. */
  variesByAccept: boolean;
  /** The bytes follow from the URL alone (no focal point read from the record): cacheable for good. */
  immutable: boolean;
}

/**
 * `GET /media/files/<key>?w=&h=&fit=&format=&q=&preset=&sig=` (docs/media.md, "Image
 * transforms"): the transform's stored file, rendered and stored (local or S3) on first request,
 * so every later one is a file read. Only an original's key (`<id>.<ext>`) of a raster image
 * transforms; its media record supplies the type and the focal point.
 */
export async function transformedMediaFile(
  svc: Services,
  actor: Principal,
  key: string,
  query: Readonly<Record<string, unknown>>,
  headers: IncomingHttpHeaders,
): Promise<TransformedFile> {
  requireMediaRead(actor, svc.config.media.publicRead);
  const spec = parseTransform(key, query, svc.config.media.transforms);
  const dot = key.lastIndexOf('.');
  const media = isSafeKey(key) && dot > 0 ? await findMedia(svc.database, key.slice(0, dot)) : undefined;
  if (!media || media.filename !== key) throw errors.notFound('File not found');
  if (!TRANSFORMABLE.has(media.mimeType))
    throw errors.invalidInput('Only raster images can be transformed', [
      { field: 'key', message: `${media.mimeType} is served as stored` },
    ]);

  const format = resolveFormat(spec.format, headers.accept, media.mimeType);
  const cropsAroundFocus = spec.fit === 'cover' && spec.w !== undefined && spec.h !== undefined;
  const resolved = {
    ...spec,
    format,
    q: spec.q ?? DEFAULT_QUALITY[format],
    ...(cropsAroundFocus && media.focalPoint ? { focal: media.focalPoint } : {}),
  };
  const target = transformKey(key, resolved);
  const file = mediaFile(svc, actor, target);
  if (!((await file.small()) ?? (await file.stat()))) await renderOnce(svc, target, () => render(svc, key, resolved, media.id, target));
  return { file, variesByAccept: spec.format === 'auto', immutable: !cropsAroundFocus };
}

/** Renders arriving at once for the same key share one rendering (per node; nodes may each render it once). */
const rendering = new WeakMap<Services, Map<string, Promise<void>>>();

function renderOnce(svc: Services, target: string, run: () => Promise<void>): Promise<void> {
  let inFlight = rendering.get(svc);
  if (!inFlight) rendering.set(svc, (inFlight = new Map()));
  let pending = inFlight.get(target);
  if (!pending) {
    pending = run().finally(() => inFlight.delete(target));
    inFlight.set(target, pending);
  }
  return pending;
}

async function render(
  svc: Services,
  sourceKey: string,
  spec: Parameters<typeof transformImage>[1],
  mediaId: string,
  target: string,
): Promise<void> {
  const source = await mapMediaFailure(readWhole(svc, sourceKey));
  if (!source) throw errors.notFound('File not found');
  const out = await mapMediaFailure(transformImage(source, spec, svc.config.media.maxPixels));
  await mapMediaFailure(svc.files.put(target, out.data, out.contentType));
  try {
    await inTransaction(svc.database, (conn) => recordTransform(conn, { key: target, mediaId, createdAt: svc.now().toISOString() }));
  } catch (err) {
    // The media item was deleted meanwhile (its row is gone): the transform must not outlive it.
    await svc.files.delete([target]).catch(() => undefined);
    throw isAppError(err) ? err : errors.notFound('File not found');
  }
}

async function readWhole(svc: Services, key: string): Promise<Buffer | undefined> {
  const object = await svc.files.get(key);
  if (!object) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
