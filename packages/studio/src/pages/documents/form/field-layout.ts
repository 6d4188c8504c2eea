import { conditionHolds, type FieldCondition, type SchemaDefinition } from '@vellum/client';
import type { FieldErrors } from '../fields/field-props';
import type { Doc, Field } from '../schema';

/** One tab of the form: its name, its label and its fields, in schema order. */
export interface FormTab {
  name: string;
  title: string;
  fields: Field[];
}

const rule = (v: unknown) => v as boolean | FieldCondition | undefined;

/**
 * Whether the form hides a field or shows it read-only for these values (docs/studio.md,
 * "Form layout"): the schema's `hidden` and `readOnly`, `true` or a rule on other fields. The
 * form's shape only: the values of a hidden field are kept and saved as they are.
 */
export const isHidden = (f: Field, values: Doc) => conditionHolds(rule(f.hidden), values);
export const isReadOnly = (f: Field, values: Doc) => conditionHolds(rule(f.readOnly), values);

/** Whether a 422's path names this field or something inside it. */
export const errorOf = (f: Field, path: string) => path === f.name || path.startsWith(`${f.name}.`);

/** The messages of fields the form does not show (hidden ones, or paths no field has): listed above the form so none is missed. */
export const unshownErrors = (fields: Field[], values: Doc, errors: FieldErrors) =>
  Object.entries(errors).filter(([path]) => !fields.some((f) => errorOf(f, path) && !isHidden(f, values)));

/** The tabs of a schema with `groups`, fields without a `group` in the first; none without groups. */
export function formTabs(schema: SchemaDefinition, fields: Field[]): FormTab[] {
  const groups = schema.groups ?? [];
  return groups.map((g, i) => ({
    name: g.name,
    title: g.title ?? g.name,
    fields: fields.filter((f) => (typeof f.group === 'string' ? f.group === g.name : i === 0)),
  }));
}

/** How many of a tab's shown fields the server refused: the tab is marked when some are. */
export const tabErrors = (tab: FormTab, values: Doc, errors: FieldErrors) =>
  Object.keys(errors).filter((path) => tab.fields.some((f) => errorOf(f, path) && !isHidden(f, values))).length;
