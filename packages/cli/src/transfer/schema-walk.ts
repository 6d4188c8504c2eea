import {
  childSchemas,
  isSchema,
  LOCALIZED_KEYWORD,
  propertiesOf,
  referenceTargets,
  schemasAt,
  typesOf,
  unionOf,
  type JsonSchema,
} from '../json-schema/json-schema.js';
import type { TypeSchema } from '../json-schema/type-schemas.js';

/**
 * What an export and an import need to know of the schemas: which values are references, so
 * documents are written after what they point at. Read from each type's JSON Schema
 * (`GET /config/schemas`, docs/api.md "OpenAPI"), where a reference carries `x-vellum-reference`,
 * wherever it sits: in a list, an object, a block of a blocks field (a `oneOf` member chosen by
 * its `_type`). Media ids need no walk: an export holds every media record before the documents,
 * and the import writes them first (docs/cli.md, "Export and import").
 */
export type SchemaDef = TypeSchema;

/** The schema names a schema's references may point at, at any depth. */
function targetsIn(schema: JsonSchema, out: Set<string>): void {
  for (const t of referenceTargets(schema) ?? []) out.add(t);
  for (const child of childSchemas(schema)) targetsIn(child, out);
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
    targetsIn(byName.get(name)!.jsonSchema, targets);
    for (const t of targets) if (wanted.includes(t)) visit(t);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of wanted) visit(name);
  return order;
}

export interface FoundReference {
  /** The top-level field it sits in (an import holds back the whole field). */
  field: string;
  id: string;
  /** The types it may point at. */
  to: string[];
}

/**
 * Every reference held by a document's data, with the top-level field it sits in and the types it
 * may point at. `allLocales`: the data is in the `locale=*` shape, each localized field an object
 * of one value per locale (docs/localization.md), so each of those values is walked.
 */
export function referencesIn(schema: SchemaDef, data: Record<string, unknown>, allLocales = false): FoundReference[] {
  const out: FoundReference[] = [];
  const walk = (top: string, s: JsonSchema, value: unknown) => {
    if (value === null || value === undefined) return;
    const to = referenceTargets(s);
    if (to && typeof value === 'string') out.push({ field: top, id: value, to });
    for (const part of schemasAt(s, 'allOf')) walk(top, part, value);
    const member = unionOf(s)?.find((m) => fits(m, value));
    if (member) walk(top, member, value);
    if (Array.isArray(value)) {
      if (isSchema(s.items)) for (const item of value) walk(top, s.items, item);
    } else if (isObject(value)) {
      for (const [name, p] of propertiesOf(s)) walk(top, p, value[name]);
    }
  };
  for (const [name, p] of propertiesOf(schema.jsonSchema)) {
    const value = data[name];
    if (allLocales && p[LOCALIZED_KEYWORD] === true && isObject(value)) for (const v of Object.values(value)) walk(name, p, v);
    else walk(name, p, value);
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** JSON's kind of a value, as JSON Schema's `type` names it (an integer is a number too). */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return isObject(v) ? 'object' : typeof v;
}

/**
 * Whether a union's member may be the one a value matches: its `type`, `const` and `enum`, and the
 * `const` of its properties (a block's `_type`: the discriminator) do not rule it out.
 */
function fits(member: JsonSchema, value: unknown): boolean {
  const types = typesOf(member);
  const kind = kindOf(value);
  if (types.length > 0 && !types.includes(kind) && !(kind === 'number' && types.includes('integer'))) return false;
  if ('const' in member && member.const !== value) return false;
  if (Array.isArray(member.enum) && !member.enum.includes(value)) return false;
  if (!isObject(value)) return true;
  return propertiesOf(member).every(([name, p]) => !('const' in p) || p.const === value[name]);
}
