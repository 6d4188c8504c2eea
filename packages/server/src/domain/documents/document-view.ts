import type { StoredDocument } from '../../storage/documents/document-rows.js';
import { LOCALE_STORE, LOCALES_KEY } from '../locales/localized-data.js';

/** A document as the API serves it: system fields first, then the schema's fields. */
export type ApiDocument = Record<string, unknown> & { _id: string; _type: string; _status: string; _rev: number };

export function toApiDocument(doc: StoredDocument): ApiDocument {
  const others = doc.data[LOCALES_KEY];
  if (others === undefined) return viewOf(doc, doc.data);
  // Other locales' values (docs/localization.md, "Storage") are served through a locale view
  // only: they ride along under a symbol, which no serialiser writes, so without `locales`
  // configured (any more) they are never served. Copied around rather than deleted, which
  // would leave the object in V8's slow dictionary mode for every later step.
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(doc.data)) if (key !== LOCALES_KEY) data[key] = doc.data[key];
  const view = viewOf(doc, data);
  (view as Record<symbol, unknown>)[LOCALE_STORE] = others;
  return view;
}

/**
 * One object literal with the data spread into it: V8 builds it with the shape every document
 * of the type shares, and later steps (projection, serialisation) stay on their fast paths.
 * Spreading a separate object of the system fields first cost a third more CPU on an uncached
 * list (docs/benchmarks.md, "Localization").
 */
const viewOf = (doc: StoredDocument, data: Record<string, unknown>): ApiDocument => ({
  _id: doc.id,
  _type: doc.type,
  _status: doc.status,
  _rev: doc.rev,
  _createdAt: doc.createdAt,
  _updatedAt: doc.updatedAt,
  _createdBy: doc.createdBy,
  _updatedBy: doc.updatedBy,
  ...data,
});

/** A published document's pending draft as served: its own `_rev`, and `_version: 'draft'` (docs/drafts.md). */
export function toDraftView(doc: StoredDocument): ApiDocument {
  const { _id, _type, _status, _rev, ...rest } = toApiDocument(doc);
  return { _id, _type, _status, _rev, _version: 'draft', ...rest };
}

export const SYSTEM_FIELDS = ['_id', '_type', '_status', '_rev', '_createdAt', '_updatedAt', '_createdBy', '_updatedBy'] as const;

/** Markers some views carry beside the system fields (docs/drafts.md, docs/localization.md). */
const MARKERS = ['_version', '_draft', '_locale', '_fallbacks', '_untranslated'] as const;

/** `fields=title,slug`: only those fields plus the system fields. */
export function projectFields(doc: ApiDocument, fields: readonly string[] | undefined): ApiDocument {
  if (!fields) return doc;
  const out: Record<string, unknown> = {};
  for (const key of SYSTEM_FIELDS) out[key] = doc[key];
  for (const key of MARKERS) if (Object.hasOwn(doc, key)) out[key] = doc[key];
  for (const key of fields) if (Object.hasOwn(doc, key) && !key.startsWith('_')) out[key] = doc[key];
  return out as ApiDocument;
}
