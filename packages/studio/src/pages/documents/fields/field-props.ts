import type { Doc, Field } from '../schema';

/** Server validation messages by field path (`seo.title`, `tags.0`), from a 422's `details`. */
export type FieldErrors = Record<string, string>;

/** What every field control is given; the dispatcher (`../field-input.tsx`) passes it on unchanged. */
export interface FieldProps {
  field: Field;
  value: unknown;
  onChange(value: unknown): void;
  /** The dotted path of this value in the document: what 422 `details` name. */
  path: string;
  errors: FieldErrors;
  /** The whole document being edited (a slug reads its `source` from it). */
  doc: Doc;
  disabled?: boolean;
  /** A label other than the field's (array items). */
  label?: string;
}

/** A string value as the text a control shows: anything else shows empty. */
export const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** An emptied control removes the value from the document rather than storing `""`. */
export const orUndefined = (v: string) => (v === '' ? undefined : v);

/** The value, state and change handler of a control whose value is one string (an emptied one removes it). */
export const bindText = (p: FieldProps) => ({
  value: text(p.value),
  disabled: p.disabled,
  onChange: (e: { target: { value: string } }) => p.onChange(orUndefined(e.target.value)),
});
