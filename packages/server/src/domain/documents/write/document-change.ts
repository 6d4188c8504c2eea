import type { StoredDocument } from '../../../storage/documents/document-rows.js';
import type { ValidationResult } from '../validate-document.js';

/**
 * What one write does to what is stored: the pipeline's unit (docs/architecture.md, "The document
 * write pipeline"). `fields` is the validated body of the new version: its references, media and
 * slugs are checked and stored beside the row.
 */
export type DocumentChange =
  | { kind: 'insert'; doc: StoredDocument; fields: ValidationResult }
  | { kind: 'update'; before: StoredDocument; doc: StoredDocument; fields: ValidationResult }
  | { kind: 'delete'; before: StoredDocument; at: string };

/** A change that stores a new version (every kind but a delete). */
export type VersionChange = Extract<DocumentChange, { kind: 'insert' | 'update' }>;

/** A decision to write nothing: the answer is the version stored (a PUT or PATCH that changes no field). */
export interface NoChange {
  kind: 'none';
  current: StoredDocument;
}

export type WriteDecision = DocumentChange | NoChange;

/** The update that stores `fields` in `status` as the next revision of `current`, written by `updatedBy` at `at`. */
export function nextVersion(
  current: StoredDocument,
  status: string,
  fields: ValidationResult,
  by: { at: string; updatedBy: string | null },
): Extract<DocumentChange, { kind: 'update' }> {
  const doc: StoredDocument = { ...current, status, rev: current.rev + 1, updatedAt: by.at, updatedBy: by.updatedBy, data: fields.data };
  return { kind: 'update', before: current, doc, fields };
}
