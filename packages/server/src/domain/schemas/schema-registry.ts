import type { FieldDef, SchemaDef } from '../../config/types.js';
import { specOf } from '../../field-types/index.js';
import type { FieldIndexSpec } from '../../storage/documents/schema-indexes.js';
import type { LocalesConfig } from '../../config/locales-section.js';
import { localePrefix } from '../locales/localized-data.js';

export interface CompiledSchema {
  name: string;
  title: string;
  public: boolean;
  singleton: boolean;
  fields: readonly FieldDef[];
  fieldMap: ReadonlyMap<string, FieldDef>;
  /** The fields with one value per locale (`localized: true`, docs/localization.md); empty without. */
  localized: readonly FieldDef[];
  localizedNames: ReadonlySet<string>;
  def: SchemaDef;
}

/** The configured schemas, compiled once at start-up into lookups. */
export class SchemaRegistry {
  private readonly byName = new Map<string, CompiledSchema>();
  readonly names: ReadonlySet<string>;

  constructor(defs: readonly SchemaDef[]) {
    for (const def of defs) {
      this.byName.set(def.name, {
        name: def.name,
        title: def.title,
        public: def.public !== false,
        singleton: def.type === 'singleton',
        fields: def.fields,
        fieldMap: new Map(def.fields.map((f) => [f.name, f])),
        localized: def.fields.filter((f) => f.localized === true),
        localizedNames: new Set(def.fields.filter((f) => f.localized === true).map((f) => f.name)),
        def,
      });
    }
    this.names = new Set(this.byName.keys());
  }

  get(name: string): CompiledSchema | undefined {
    // Map lookup by own key only: names like `__proto__` or `constructor` simply miss.
    return this.byName.get(name);
  }

  list(): CompiledSchema[] {
    return [...this.byName.values()];
  }

  /** Every field that needs a database index: `indexed`, `unique`, and the types always indexed (references, slugs, selects). */
  indexSpecs(locales?: LocalesConfig): FieldIndexSpec[] {
    const specs: FieldIndexSpec[] = [];
    for (const s of this.byName.values()) {
      for (const f of s.fields) {
        const spec = specOf(f);
        const wanted = f.indexed || f.unique || spec.alwaysIndexed;
        if (!wanted || !spec.indexable) continue;
        const perLocale = f.localized && locales ? localeIndexes(locales) : undefined;
        specs.push({ type: s.name, path: uniquePath(f), unique: isUnique(f), ...(perLocale ? { locales: perLocale } : {}) });
      }
    }
    return specs;
  }
}

/** Per locale but the default: where a localized field's own values sit, and the chain a query in that locale reads. */
function localeIndexes(locales: LocalesConfig) {
  return locales.list
    .filter((l) => l.code !== locales.default)
    .map((l) => ({ code: l.code, own: localePrefix(l.code, locales), chain: locales.chains[l.code].map((c) => localePrefix(c, locales)) }));
}

/** Unique per type: `unique: true`, or a type that always is (slugs). */
export const isUnique = (f: FieldDef): boolean => Boolean(f.unique) || Boolean(specOf(f).alwaysUnique);

/** Where a unique or indexed field's scalar sits in the stored data (`slug.current`). */
export const uniquePath = (f: FieldDef): string[] => [f.name, ...(specOf(f).scalarPath ?? [])];

/** The scalar of a unique field's stored value (a slug's `current`). */
export function uniqueScalar(f: FieldDef, value: unknown): string | number | boolean {
  let v = value;
  for (const key of specOf(f).scalarPath ?? []) v = (v as Record<string, unknown>)[key];
  return v as string | number | boolean;
}
