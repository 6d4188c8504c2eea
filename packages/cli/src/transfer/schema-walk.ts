/**
 * What an export and an import need to know of the schemas (`GET /config/schemas`, docs/api.md
 * "Schemas"): which fields hold references, so documents are written after what they point at.
 */

export interface FieldDef {
  name?: string;
  type: string;
  /** `reference`: one or more schema names. */
  to?: string | string[];
  /** `array`: the item's definition. */
  of?: FieldDef;
  /** `object`: its fields. */
  fields?: FieldDef[];
}

export interface SchemaDef {
  name: string;
  type: string;
  fields: FieldDef[];
}

const asList = (to: string | string[] | undefined): string[] => (to === undefined ? [] : Array.isArray(to) ? to : [to]);

/** The schema names a field's references may point at, at any depth. */
function targetsOf(field: FieldDef, out: Set<string>): void {
  if (field.type === 'reference') for (const t of asList(field.to)) out.add(t);
  if (field.of) targetsOf(field.of, out);
  for (const f of field.fields ?? []) targetsOf(f, out);
}

/**
 * The types in an order where references point backwards where they can: a type comes after the
 * types it references (depth first), so `company, author, post`. A cycle between types (or a
 * type referencing itself) is cut where it is met; the import defers what still points forward.
 */
export function orderTypes(schemas: readonly SchemaDef[], wanted: readonly string[]): string[] {
  const byName = new Map(schemas.map((s) => [s.name, s]));
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.has(name) || !byName.has(name)) return;
    state.set(name, 'visiting');
    const targets = new Set<string>();
    for (const f of byName.get(name)!.fields) targetsOf(f, targets);
    for (const t of targets) if (wanted.includes(t)) visit(t);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of wanted) visit(name);
  return order;
}

/** Every reference held by a document's data, with the top-level field it sits in and the types it may point at. */
export function referencesIn(schema: SchemaDef, data: Record<string, unknown>): Array<{ field: string; id: string; to: string[] }> {
  const out: Array<{ field: string; id: string; to: string[] }> = [];
  const walk = (top: string, def: FieldDef, value: unknown) => {
    if (value === null || value === undefined) return;
    if (def.type === 'reference' && typeof value === 'string') out.push({ field: top, id: value, to: asList(def.to) });
    else if (def.type === 'array' && def.of && Array.isArray(value)) for (const item of value) walk(top, def.of, item);
    else if (def.type === 'object' && def.fields && typeof value === 'object') {
      for (const f of def.fields) if (f.name !== undefined) walk(top, f, (value as Record<string, unknown>)[f.name]);
    }
  };
  for (const f of schema.fields) if (f.name !== undefined) walk(f.name, f, data[f.name]);
  return out;
}
