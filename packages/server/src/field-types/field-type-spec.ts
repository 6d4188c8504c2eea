import type { ConfigReader } from '../config/reader.js';
import type { FieldDef, FieldType } from '../config/types.js';
import type { ErrorDetail } from '../errors.js';

/** A field definition wherever it sits: an array's `of` has no name of its own. */
export type AnyFieldDef = Omit<FieldDef, 'name'> & { name?: string };

export type JsonSchema = Record<string, unknown>;

/** The filter operators of docs/api.md ("List queries"). */
export type FilterOperator = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'contains' | 'startsWith' | 'exists';

/** A scalar a filter compares with. */
export type FilterScalar = string | number | boolean;

/** A reference found while validating, checked against the database afterwards in one query. */
export interface FoundReference {
  /** Where the writer put it: error details name it so. */
  path: string;
  /** Where it is kept as an edge of the document when that differs from `path` (another locale's value: `author[de]`). */
  edgePath?: string;
  id: string;
  to: readonly string[];
}

/** A media id found in an image or file field, checked for existence and `accept` afterwards. */
export interface FoundMedia {
  path: string;
  /** As `FoundReference.edgePath`. */
  edgePath?: string;
  id: string;
  /** MIME prefixes or types the field takes; images default to `image/`. */
  accept: readonly string[];
}

/** A value the validator refused (its error is already pushed). */
export const INVALID = Symbol('invalid');
/** A value that normalises to nothing and is generated on the write (a slug left empty). */
export const EMPTY = Symbol('empty');
export type ValueOutcome = unknown;

/** What validating one value may add to, and the recursion a container type needs. */
export interface ValueContext {
  errors: ErrorDetail[];
  references: FoundReference[];
  media: FoundMedia[];
  applyDefaults: boolean;
  /** The content locale of the value being checked, where locales are configured (slugs transliterate by it). */
  locale?: string;
  /** Validates one value of `field` (its type's spec): the normalised value, INVALID or EMPTY. */
  value(field: AnyFieldDef, value: unknown, path: string): ValueOutcome;
  /** Validates nested fields: unknown keys are errors, required ones checked, dotted paths below `prefix`. */
  object(fields: readonly FieldDef[], input: Record<string, unknown>, prefix: string): Record<string, unknown>;
}

/** What checking a field's options at start-up may need beyond the reader. */
export interface OptionContext {
  /** The names of every configured schema (references name them). */
  schemas: ReadonlySet<string>;
  /** Checks a nested field definition (an array's `of`); returns it completed. */
  field(path: string, f: FieldDef): FieldDef;
  /** Checks a nested list of fields (an object's `fields`). */
  fields(path: string, raw: unknown): FieldDef[];
}

/** Where a dotted path below a field leads: the JSON path inside the field and the type compared there. */
export interface ResolvedBelow {
  path: string[];
  type: FieldType;
  /** The path names a list of scalars: filters test membership. */
  array: boolean;
  /** The path names a key inside each object of a list (blocks): filters test "some item has". */
  element?: string[];
}

export interface PathContext {
  spec(field: AnyFieldDef): FieldTypeSpec;
  /** Resolves the rest of a path inside a list of fields (an object's). */
  fields(fields: readonly FieldDef[], rest: readonly string[]): ResolvedBelow | undefined;
}

export interface JsonSchemaContext {
  field(f: AnyFieldDef): JsonSchema;
  object(fields: readonly FieldDef[]): JsonSchema;
}

export interface SearchSink {
  text(text: string): void;
  value(field: AnyFieldDef, value: unknown): void;
}

/** How the studio shows a field (`GET /config/schemas`): the control by name, and what its list page offers. */
export interface StudioHints {
  control: string;
  /** Offered as a sort on the document list. */
  sortable: boolean;
  /** Shown as a column of the document list. */
  column: boolean;
  /** Offered as a filter on the document list: a choice of the options, or of documents it may point at. */
  listFilter?: 'options' | 'documents';
  /** The HTML input type of the one-line control (absent: `text`), so the browser checks and offers what the type stores. */
  input?: 'email' | 'url' | 'date';
  /** The number control's step (absent: any number). */
  step?: number;
  /** A stored string shown, not edited (list columns, revision diffs), in the browser's locale: a day or a moment. */
  display?: 'date' | 'datetime';
  /** The MIME prefixes a media field takes when it names no `accept`: the upload's file filter and the library's. */
  accept?: readonly string[];
  /** A new item of a list of this type starts as this value (an object's fields are filled in it); absent: no value. */
  emptyValue?: Record<string, never>;
  /** The control of an array whose items are of this type (references: a searchable, sortable list of chips). */
  listControl?: string;
}

/**
 * Everything the server knows about one field type (docs/api.md, "Schemas"). Every consumer —
 * config checks, validation, list queries, search, expand, JSON Schema, the studio — reads this.
 */
export interface FieldTypeSpec {
  /** The type's own options beside the common ones (`required`, `unique`, …). */
  options: readonly string[];
  /** Checks the type's options at start-up; problems go to the reader. */
  checkOptions?(r: ConfigReader, path: string, f: FieldDef, ctx: OptionContext): void;
  /** Validates and normalises a present value: the stored value, INVALID (error pushed) or EMPTY. */
  validate(field: AnyFieldDef, value: unknown, path: string, ctx: ValueContext): ValueOutcome;
  /** An absent value is generated by the write, never "required" (slugs from their source). */
  generatedWhenEmpty?: boolean;
  /** May be the `source` of a slug. */
  slugSource?: boolean;
  /** `contains` and `startsWith` apply. */
  stringLike: boolean;
  /** Lists may be ordered by it. */
  orderable: boolean;
  /** Text people read, which a list may order naturally (`natural=true`: "Chapter 2" before "Chapter 10"). */
  naturalOrder?: boolean;
  /** Compared as a whole value; structured ones filter only with `exists` and never order. */
  structured: boolean;
  /** `gt`, `gte`, `lt`, `lte` apply (not to true/false). */
  ranged: boolean;
  /** What a value gives full-text search: its own text, or its nested values'. */
  search?(field: AnyFieldDef, value: unknown, out: SearchSink): void;
  /** A top-level value the database can index and compare. */
  indexable: boolean;
  /** Indexed even without `indexed: true`. */
  alwaysIndexed?: boolean;
  /** Unique per type even without `unique: true`. */
  alwaysUnique?: boolean;
  /** Where the indexed, unique scalar sits inside the stored value (`['current']` for slugs). */
  scalarPath?: readonly string[];
  /** Expand replaces the value (or each item of an array of it) by a document or a media record. */
  expands?: 'documents' | 'media';
  /** The field definition of each item when the value is a list of one type. */
  itemOf?(field: AnyFieldDef): AnyFieldDef | undefined;
  /** Fields a dotted path (expand, filter) walks into below the field. */
  childFields?(field: AnyFieldDef): readonly FieldDef[];
  /** Resolves a dotted path below the field; default: only the field itself. */
  resolve?(field: AnyFieldDef, rest: readonly string[], ctx: PathContext): ResolvedBelow | undefined;
  /** A filter value as the field stores it, so `filter[price]=10` compares numbers. */
  filterValue?(raw: string, fail: (message: string) => Error, range?: readonly [number, number]): FilterScalar;
  /** A cursor's sort value is one this type stores. */
  holds(v: unknown, range?: readonly [number, number]): boolean;
  /** What a value stores, in JSON Schema 2020-12; constraints left to the validator. */
  jsonSchema(field: AnyFieldDef, ctx: JsonSchemaContext): JsonSchema;
  /** A copy of the definition with each nested definition mapped (`/config/schemas` decorates them). */
  mapChildren?(field: AnyFieldDef, map: (f: AnyFieldDef) => AnyFieldDef): AnyFieldDef;
  studio: StudioHints;
}
