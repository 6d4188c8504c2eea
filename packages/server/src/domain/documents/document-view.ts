import type { StoredDocument } from '../../storage/documents/document-rows.js';

/** A document as the API serves it: system fields first, then the schema's fields. */
export type ApiDocument = Record<string, unknown> & { _id: string; _type: string; _status: string; _rev: number };

export function toApiDocument(doc: StoredDocument): ApiDocument {
  return {
    _id: doc.id,
    _type: doc.type,
    _status: doc.status,
    _rev: doc.rev,
    _createdAt: doc.createdAt,
    _updatedAt: doc.updatedAt,
    _createdBy: doc.createdBy,
    _updatedBy: doc.updatedBy,
    ...doc.data,
  };
}

export const SYSTEM_FIELDS = ['_id', '_type', '_status', '_rev', '_createdAt', '_updatedAt', '_createdBy', '_updatedBy'] as const;

/** `fields=title,slug`: only those fields plus the system fields. */
export function projectFields(doc: ApiDocument, fields: readonly string[] | undefined): ApiDocument {
  if (!fields) return doc;
  const out: Record<string, unknown> = {};
  for (const key of SYSTEM_FIELDS) out[key] = doc[key];
  for (const key of fields) if (Object.hasOwn(doc, key) && !key.startsWith('_')) out[key] = doc[key];
  return out as ApiDocument;
}
