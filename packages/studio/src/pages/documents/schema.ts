import type { FieldStudioHints, SchemaDefinition } from '@vellum/client';
import type { Session } from '../../auth/session';
import { useSchemas } from '../../queries/config';

/** A field of a schema (docs/api.md, "Schemas"): `{name, title?, type, required?, …}` plus its type's options. */
export interface Field {
  name: string;
  type: string;
  title?: string;
  description?: string;
  required?: boolean;
  /**
   * What the server's field-type table says about showing it (docs/api.md, "Schemas"): the control,
   * the list's hints, the input type, step, display, default `accept` and a new item's value. The
   * studio reads these, never the field's `type` (test/unit/field-types-registry.test.ts).
   */
  studio?: FieldStudioHints;
  /** One value per content locale (docs/localization.md): edited in the page's locale. */
  localized?: boolean;
  [option: string]: unknown;
}

/** The name of a field's control; a field without hints is a one-line input. */
export const controlOf = (f: Field): string => f.studio?.control ?? 'string';

export type Doc = Record<string, unknown>;

export function useSchema(type: string): { schema?: SchemaDefinition; error: unknown; loading: boolean } {
  const q = useSchemas();
  return { schema: q.data?.find((s) => s.name === type), error: q.error, loading: q.isPending };
}

export const fieldsOf = (schema: SchemaDefinition | undefined): Field[] => (schema?.fields ?? []) as Field[];

/** The label of a field: its `title`, else its name with the first letter up and camelCase split. */
export function fieldLabel(f: Pick<Field, 'name' | 'title'>): string {
  if (f.title) return f.title;
  const words = f.name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The options of a select field: strings, or `{value, title}` objects. */
export function selectOptions(f: Field): Array<{ value: string; title: string }> {
  const raw = (f.options ?? f.list ?? []) as unknown[];
  return raw.map((o) =>
    typeof o === 'object' && o !== null
      ? { value: String((o as Doc).value), title: String((o as Doc).title ?? (o as Doc).value) }
      : { value: String(o), title: String(o) },
  );
}

/** The schema names a reference field may point at (`to`: one name or several). */
export const referenceTargets = (f: Field): string[] => (Array.isArray(f.to) ? (f.to as string[]) : f.to ? [String(f.to)] : []);

/**
 * Whether the session may do `area:action` (`media:upload`), or with `type` an action on that
 * schema's documents: the rule of the spec's permissions, which the server applies — an admin,
 * `<type>:<action>`, `<type>:*`, `content:<action>` or `content:*`.
 */
export function allows(session: Session, permission: string, type?: string): boolean {
  if (session.user?.role === 'admin') return true;
  const [area, action] = permission.split(':');
  const held = new Set(session.permissions);
  if (held.has(permission) || held.has(`${area}:*`)) return true;
  return !!type && area === 'content' && (held.has(`${type}:${action}`) || held.has(`${type}:*`));
}

export const STATUSES = ['draft', 'published', 'archived'] as const;
