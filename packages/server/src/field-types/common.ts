import type { AnyFieldDef, FieldTypeSpec, StudioHints, ValueContext } from './field-type-spec.js';
import { INVALID } from './field-type-spec.js';

/** Document and media ids (docs/api.md, "Documents"). */
export const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function fail(ctx: ValueContext, field: string, message: string): typeof INVALID {
  ctx.errors.push({ field, message });
  return INVALID;
}

const holdsString = (v: unknown) => typeof v === 'string';

/** A scalar stored as a string: the defaults most types share. */
export function stringScalar(spec: Partial<FieldTypeSpec> & Pick<FieldTypeSpec, 'validate' | 'studio'>): FieldTypeSpec {
  return {
    options: [],
    stringLike: true,
    orderable: true,
    structured: false,
    ranged: true,
    indexable: true,
    holds: holdsString,
    jsonSchema: () => ({ type: 'string' }),
    ...spec,
  };
}

/** A value compared only as a whole (`exists`), never ordered or indexed. */
export function structured(spec: Partial<FieldTypeSpec> & Pick<FieldTypeSpec, 'validate' | 'jsonSchema' | 'studio'>): FieldTypeSpec {
  return {
    options: [],
    stringLike: false,
    orderable: false,
    structured: true,
    ranged: false,
    indexable: false,
    holds: () => false,
    ...spec,
  };
}

/** A type's studio hints: its control by name, not sorted or shown as a column unless `hints` says so. */
export const studio = (control: string, hints: Partial<Omit<StudioHints, 'control'>> = {}): StudioHints => ({
  control,
  sortable: false,
  column: false,
  ...hints,
});

/** The field's `to` as a list. */
export const targetsOf = (field: AnyFieldDef): string[] => (Array.isArray(field.to) ? [...field.to] : [field.to as string]);
