/** `draft` (default), `published`, `archived` (docs/api.md, "Documents"). */
export type DocumentStatus = 'draft' | 'published' | 'archived';

/** The fields every served document carries next to its schema's. */
export interface SystemFields {
  _id: string;
  _type: string;
  _status: DocumentStatus;
  _rev: number;
  _createdAt: string;
  _updatedAt: string;
  /** A user id, or `token:<id>` for an API token. */
  _createdBy: string | null;
  _updatedBy: string | null;
  /** `draft` when served from a published document's pending draft; `main` for a main version read with a perspective. */
  _version?: 'main' | 'draft';
  /** On a main version with a pending draft, for readers of every status (docs/drafts.md, "Markers"). */
  _draft?: { _rev: number; _updatedAt: string; _updatedBy: string | null };
}

/**
 * A document as served: `T` (the schema's fields, e.g. a generated `Post` interface) plus the
 * system fields. With `fields` or `expand` some fields are absent or hold expanded documents:
 * the type describes the plain read.
 */
export type VellumDocument<T extends object = Record<string, unknown>> = OwnFields<T> & SystemFields;

/**
 * The schema's own fields of `T`: the interfaces `vellum types` generates carry the system fields
 * too (so they describe a served document on their own), and the server sets those itself.
 */
export type OwnFields<T extends object> = Omit<T, keyof SystemFields>;

/** A body for create and PUT: the schema's fields, optionally the `_id` (create) and `_status`. */
export type DocumentInput<T extends object> = OwnFields<T> & { _id?: string; _status?: DocumentStatus };

/** An RFC 7396 merge patch: the fields to change, `null` to remove one, optionally `_status`. */
export type DocumentPatch<T extends object> = { [K in keyof OwnFields<T>]?: OwnFields<T>[K] | null } & { _status?: DocumentStatus };

/** One stored version of a document (`GET …/:id/revisions`), newest first; the current one included. */
export interface Revision<T extends object = Record<string, unknown>> {
  _rev: number;
  /** `main`: a version of the document; `draft`: a save of its pending draft (`revisions(id, {kind: 'draft'})`). */
  kind: 'main' | 'draft';
  _status: DocumentStatus;
  _updatedAt: string;
  _updatedBy: string | null;
  data: T;
}

/** The document shape of the first client (`list`, `get`, `create` on VellumClient). */
export type Document = Record<string, unknown> & { _id: string; _type: string; _status: string; _rev: number };

/** What a publish would do (`publishPlan`): the documents it publishes and the references to unpublished ones in the way. */
export interface PublishPlan {
  publish: Array<{ type: string; id: string }>;
  blockedBy: Array<{ type: string; id: string; field: string }>;
}
