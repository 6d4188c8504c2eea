import { sql } from 'kysely';
import type { Conn } from '../connection.js';
import { escapeLike } from '../escape-like.js';
import type { MediaTable } from '../tables.js';

export interface StoredVariant {
  key: string;
  mimeType: string;
  width: number;
  height: number;
  size: number;
}

export interface StoredMedia {
  id: string;
  /** The storage key of the original: `<id>.<ext>`. */
  filename: string;
  originalFilename: string;
  mimeType: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
  alt: string | null;
  title: string | null;
  variants: Record<string, StoredVariant>;
  placeholder: string | null;
  dominantColor: string | null;
  /** Where `fit=cover` crops around: 0–1 from the left and from the top; null when unset (the centre). */
  focalPoint: { x: number; y: number } | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

export const MEDIA_ORDER_COLUMNS = {
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  filename: 'filename',
  originalFilename: 'original_filename',
  size: 'size',
  mimeType: 'mime_type',
  title: 'title',
} as const;
export type MediaOrderField = keyof typeof MEDIA_ORDER_COLUMNS;

export interface MediaListQuery {
  /** MIME prefix (`image/`) or exact type. */
  type?: string;
  /** Case-insensitive substring of filename, original filename, title or alt. */
  search?: string;
  sha256?: string;
  orderBy: MediaOrderField;
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

function toMedia(conn: Conn, r: MediaTable): StoredMedia {
  return {
    id: r.id,
    filename: r.filename,
    originalFilename: r.original_filename,
    mimeType: r.mime_type,
    size: Number(r.size),
    sha256: r.sha256,
    width: r.width,
    height: r.height,
    alt: r.alt,
    title: r.title,
    variants: conn.dialect.decodeData(r.variants) as unknown as Record<string, StoredVariant>,
    placeholder: r.placeholder,
    dominantColor: r.dominant_color,
    focalPoint: r.focal_x !== null && r.focal_y !== null ? { x: Number(r.focal_x), y: Number(r.focal_y) } : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    createdBy: r.created_by,
  };
}

export async function insertMedia(conn: Conn, m: StoredMedia): Promise<void> {
  await conn.db
    .insertInto('media')
    .values({
      id: m.id,
      filename: m.filename,
      original_filename: m.originalFilename,
      mime_type: m.mimeType,
      size: m.size,
      sha256: m.sha256,
      width: m.width,
      height: m.height,
      alt: m.alt,
      title: m.title,
      variants: conn.dialect.encodeData(m.variants as unknown as Record<string, unknown>),
      placeholder: m.placeholder,
      dominant_color: m.dominantColor,
      focal_x: m.focalPoint?.x ?? null,
      focal_y: m.focalPoint?.y ?? null,
      created_at: m.createdAt,
      updated_at: m.updatedAt,
      created_by: m.createdBy,
    })
    .execute();
}

export async function findMedia(conn: Conn, id: string): Promise<StoredMedia | undefined> {
  const row = await conn.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toMedia(conn, row) : undefined;
}

export async function findMediaByIds(conn: Conn, ids: readonly string[]): Promise<StoredMedia[]> {
  if (ids.length === 0) return [];
  const rows = await conn.db.selectFrom('media').selectAll().where('id', 'in', ids).execute();
  return rows.map((r) => toMedia(conn, r));
}

export async function listMedia(conn: Conn, q: MediaListQuery): Promise<{ rows: StoredMedia[]; total: number }> {
  let base = conn.db.selectFrom('media');
  if (q.type) {
    base = q.type.endsWith('/')
      ? base.where(sql<boolean>`mime_type like ${`${escapeLike(q.type.toLowerCase())}%`} escape '\\'`)
      : base.where('mime_type', '=', q.type.toLowerCase());
  }
  if (q.sha256) base = base.where('sha256', '=', q.sha256);
  if (q.search) {
    const pattern = `%${escapeLike(q.search.toLowerCase())}%`;
    base = base.where((eb) =>
      eb.or(
        ['filename', 'original_filename', 'title', 'alt'].map((c) => eb(sql`lower(${sql.ref(c)})`, 'like', sql`${pattern} escape '\\'`)),
      ),
    );
  }
  const column = MEDIA_ORDER_COLUMNS[q.orderBy];
  const rows = await base.selectAll().orderBy(sql.ref(column), q.order).orderBy('id', q.order).limit(q.limit).offset(q.offset).execute();
  const { n } = await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return { rows: rows.map((r) => toMedia(conn, r)), total: Number(n) };
}

export async function updateMedia(
  conn: Conn,
  id: string,
  changes: { alt?: string | null; title?: string | null; focalPoint?: { x: number; y: number } | null; updatedAt: string },
): Promise<StoredMedia | undefined> {
  const row = await conn.db
    .updateTable('media')
    .set({
      ...(changes.alt !== undefined ? { alt: changes.alt } : {}),
      ...(changes.title !== undefined ? { title: changes.title } : {}),
      ...(changes.focalPoint !== undefined ? { focal_x: changes.focalPoint?.x ?? null, focal_y: changes.focalPoint?.y ?? null } : {}),
      updated_at: changes.updatedAt,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toMedia(conn, row) : undefined;
}

export async function deleteMediaRow(conn: Conn, id: string): Promise<boolean> {
  const row = await conn.db.deleteFrom('media').where('id', '=', id).returning('id').executeTakeFirst();
  if (row) {
    await conn.db.deleteFrom('document_media').where('media_id', '=', id).execute();
    await conn.db.deleteFrom('document_draft_media').where('media_id', '=', id).execute();
  }
  return row !== undefined;
}

/** Documents whose image or file fields hold this media id, in their main version or their pending draft. */
export async function findMediaUsers(
  conn: Conn,
  mediaId: string,
  limit: number,
): Promise<Array<{ id: string; type: string; path: string }>> {
  const held = (table: 'document_media' | 'document_draft_media') =>
    conn.db.selectFrom(table).select(['source_id', 'path']).where('media_id', '=', mediaId);
  return conn.db
    .selectFrom(held('document_media').union(held('document_draft_media')).as('u'))
    .innerJoin('documents', 'documents.id', 'u.source_id')
    .select(['documents.id as id', 'documents.type as type', 'u.path as path'])
    .orderBy('documents.id')
    .limit(limit)
    .execute();
}
