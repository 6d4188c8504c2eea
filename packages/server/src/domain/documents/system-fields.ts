import type { FieldType } from '../../config/types.js';
import type { SystemColumn } from '../../storage/documents/document-filter-sql.js';

interface SystemFieldColumn {
  column: SystemColumn;
  type: FieldType;
  /** The values an integer column holds, where narrower than a JSON number. */
  range?: readonly [number, number];
}

/** System fields that can be filtered and ordered on, with the column and type they compare as. */
export const SYSTEM_FIELD_COLUMNS: Readonly<Record<string, SystemFieldColumn>> = {
  _id: { column: 'id', type: 'string' },
  _status: { column: 'status', type: 'string' },
  // `rev` is an `integer` column: 32 bits on PostgreSQL (storage/migrations/001-initial.ts).
  _rev: { column: 'rev', type: 'integer', range: [-2_147_483_648, 2_147_483_647] },
  _createdAt: { column: 'created_at', type: 'datetime' },
  _updatedAt: { column: 'updated_at', type: 'datetime' },
  _createdBy: { column: 'created_by', type: 'string' },
  _updatedBy: { column: 'updated_by', type: 'string' },
};

export const STATUSES = ['draft', 'published', 'archived'] as const;
export type DocumentStatus = (typeof STATUSES)[number];

export function systemField(name: string) {
  return Object.hasOwn(SYSTEM_FIELD_COLUMNS, name) ? SYSTEM_FIELD_COLUMNS[name] : undefined;
}
