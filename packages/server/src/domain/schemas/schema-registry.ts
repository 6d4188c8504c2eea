import type { FieldDef, FieldType, SchemaDef } from '../../config/types.js';
import { INDEXABLE } from '../../config/validate-schemas.js';
import type { FieldIndexSpec } from '../../storage/documents/schema-indexes.js';

export interface CompiledSchema {
  name: string;
  title: string;
  public: boolean;
  singleton: boolean;
  fields: readonly FieldDef[];
  fieldMap: ReadonlyMap<string, FieldDef>;
  def: SchemaDef;
}

/** Types whose text feeds full-text search. */
export const SEARCHABLE: readonly FieldType[] = ['string', 'text', 'markdown', 'richtext'];

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

  /** Every field that needs a database index: `indexed`, `unique`, references, slugs and selects. */
  indexSpecs(): FieldIndexSpec[] {
    const specs: FieldIndexSpec[] = [];
    for (const s of this.byName.values()) {
      for (const f of s.fields) {
        const wanted = f.indexed || f.unique || f.type === 'reference' || f.type === 'slug' || f.type === 'select';
        if (!wanted || !INDEXABLE.includes(f.type)) continue;
        specs.push({
          type: s.name,
          path: f.type === 'slug' ? [f.name, 'current'] : [f.name],
          unique: Boolean(f.unique) || f.type === 'slug',
        });
      }
    }
    return specs;
  }
}
