import type { Preferences } from '@vellum/client';
import { fieldLabel, type Field } from '../schema';

/** A saved view: the list's address (search, filters, sort, rows) and its columns, by a name. */
export interface SavedView {
  name: string;
  /** The address's query without the page (`q=…&sort=…&f.category=news`). */
  query: string;
  columns: string[];
}

/** What the studio keeps of one type's list in the user's preferences (`studio.lists.<type>`). */
export interface ListPrefs {
  columns?: string[];
  views?: SavedView[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

export function listPrefs(prefs: Preferences, type: string): ListPrefs {
  return obj(obj(obj(prefs.studio).lists)[type]) as ListPrefs;
}

/** The preferences with one type's list entry replaced; every other key is kept as it was. */
export function withListPrefs(prefs: Preferences, type: string, next: ListPrefs): Preferences {
  const studio = obj(prefs.studio);
  return { ...prefs, studio: { ...studio, lists: { ...obj(studio.lists), [type]: next } } };
}

/** A column of the list besides the title: a field with a column hint, or a system column. */
export interface Column {
  key: string;
  label: string;
  field?: Field;
  /** The `sort` value ordering by it (ascending), when the server can order by it. */
  sort?: string;
}

export const SYSTEM_COLUMNS: Column[] = [
  { key: '_status', label: 'Status' },
  { key: '_updatedAt', label: 'Updated', sort: '_updatedAt' },
  { key: '_createdAt', label: 'Created', sort: '_createdAt' },
];

/** The columns one may choose: fields with a column hint (after the title), then status and times. */
export function choosableColumns(fields: Field[]): Column[] {
  const hinted = fields.filter((f) => f.studio?.column).slice(1);
  return [
    ...hinted.map((f) => ({ key: f.name, label: fieldLabel(f), field: f, ...(f.studio?.sortable && { sort: f.name }) })),
    ...SYSTEM_COLUMNS,
  ];
}

/** The columns shown before any choice: the next two hinted fields, status and last update (as before). */
export function defaultColumns(fields: Field[]): string[] {
  const hinted = fields.filter((f) => f.studio?.column).slice(1, 3);
  return [...hinted.map((f) => f.name), '_status', '_updatedAt'];
}
