import type { FieldType } from '../../config/types.js';
import type { SystemField } from './list-query.js';

interface SystemFieldType {
  name: SystemField;
  type: FieldType;
  /** The values an integer column holds, where narrower than a JSON number. */
  range?: readonly [number, number];
}

/** System fields that can be filtered and ordered on, with the type they compare as. */
export const SYSTEM_FIELDS: Readonly<Record<string, SystemFieldType>> = {
  _id: { name: '_id', type: 'string' },
  _status: { name: '_status', type: 'string' },
  // `rev` is an `integer` column: 32 bits on PostgreSQL (storage/migrations/001-initial.ts).
  _rev: { name: '_rev', type: 'integer', range: [-2_147_483_648, 2_147_483_647] },
  _createdAt: { name: '_createdAt', type: 'datetime' },
  _updatedAt: { name: '_updatedAt', type: 'datetime' },
  _createdBy: { name: '_createdBy', type: 'string' },
  _updatedBy: { name: '_updatedBy', type: 'string' },
};

export const STATUSES = ['draft', 'published', 'archived'] as const;
export type DocumentStatus = (typeof STATUSES)[number];

export function systemField(name: string) {
  return Object.hasOwn(SYSTEM_FIELDS, name) ? SYSTEM_FIELDS[name] : undefined;
}
