import { errors } from '../../errors.js';
import { findMedia, listMedia as listRows, MEDIA_ORDER_COLUMNS, type MediaOrderField } from '../../storage/media/media-store.js';
import { requireMediaRead } from '../access/policy.js';
import type { Principal } from '../access/principal.js';
import { parsePaging } from '../shared/paging.js';
import type { Services } from '../services.js';
import { toApiMedia, type ApiMedia } from './media-view.js';

export interface MediaListInput {
  limit?: unknown;
  offset?: unknown;
  type?: string;
  search?: string;
  sha256?: string;
  orderBy?: string;
  order?: string;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** `GET /media`: newest first unless told otherwise; `type` is a MIME prefix (`image/`, `image`) or an exact type. */
export async function listMedia(
  svc: Services,
  actor: Principal,
  input: MediaListInput,
): Promise<{ data: ApiMedia[]; meta: { total: number; limit: number; offset: number } }> {
  requireMediaRead(actor, svc.config.media.publicRead);
  const { limit, offset } = parsePaging(input.limit, input.offset);
  const orderBy = input.orderBy ?? 'createdAt';
  if (!(orderBy in MEDIA_ORDER_COLUMNS)) throw badQuery('orderBy', `must be one of ${Object.keys(MEDIA_ORDER_COLUMNS).join(', ')}`);
  const order = input.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw badQuery('order', 'must be asc or desc');
  if (input.type !== undefined && !/^[a-z0-9.+-]+\/?[a-z0-9.+-]*$/i.test(input.type))
    throw badQuery('type', 'must be a MIME type or prefix such as image/');
  // A bare top-level type (`image`) means all of it (`image/`).
  const type = input.type && !input.type.includes('/') ? `${input.type}/` : input.type;
  const sha256 = input.sha256?.toLowerCase();
  if (sha256 !== undefined && !SHA256.test(sha256)) throw badQuery('sha256', 'must be 64 hex digits');
  const { rows, total } = await listRows(svc.database, {
    type: type || undefined,
    search: input.search || undefined,
    sha256,
    orderBy: orderBy as MediaOrderField,
    order,
    limit,
    offset,
  });
  return { data: rows.map((m) => toApiMedia(svc.config, m)), meta: { total, limit, offset } };
}

export async function getMedia(svc: Services, actor: Principal, id: string): Promise<ApiMedia> {
  requireMediaRead(actor, svc.config.media.publicRead);
  const m = await findMedia(svc.database, id);
  if (!m) throw errors.notFound('Media not found');
  return toApiMedia(svc.config, m);
}

function badQuery(field: string, message: string) {
  return errors.invalidInput(`${field} ${message}`, [{ field, message }]);
}
