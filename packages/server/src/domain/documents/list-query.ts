/**
 * The list vocabulary, in the API's terms: fields by their API names (`_status`, `seo.title`),
 * the filter operators of docs/api.md ("List queries"), typed values. The domain builds it
 * (`parse-list-query.ts`); storage implements it (`storage/documents/list-documents-query.ts`
 * maps fields to columns and JSON paths). Types only: storage reads them without depending on
 * anything else of the domain.
 */

/** A value a filter compares with, typed as the field is stored. */
export type FilterValue = string | number | boolean;

/** The system fields a list can filter and order on. */
export type SystemField = '_id' | '_status' | '_rev' | '_createdAt' | '_updatedAt' | '_createdBy' | '_updatedBy';

/**
 * A field of a document: a system field, or a path into its fields. `array`: the value at `path`
 * is a list, compared by membership; `element`: a list of objects, compared at that key in each.
 */
export type FieldRef =
  | { system: SystemField }
  | {
      path: readonly string[];
      array?: boolean;
      element?: readonly string[];
      /**
       * A localized field read through a locale's chain (docs/localization.md, "Querying"): where
       * each locale's value sits in the stored data, in chain order (`[]` the default locale's
       * place, `['_locales', 'de']` another's). The value compared is `path` below the first of
       * them that holds the field (`path[0]`); absent: `path` itself.
       */
      chain?: readonly (readonly string[])[];
    };

export type FilterOp = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'contains' | 'startsWith' | 'exists';

export interface Condition {
  field: FieldRef;
  op: FilterOp;
  /** A list for in/nin, a boolean for exists, otherwise one typed value. */
  value: FilterValue | FilterValue[];
}

/**
 * Documents with at least one of `fields` (the type's localized fields) holding a value in the
 * default locale and none at `place` (where a locale's own values sit, `['_locales', 'de']`):
 * what that locale has still to translate (docs/localization.md, "Translation status").
 */
export interface Untranslated {
  place: readonly string[];
  fields: readonly string[];
}

export interface ListOrder {
  field: FieldRef;
  direction: 'asc' | 'desc';
  /** Compare the text's natural key, digit runs by value (`natural=true`, docs/api.md, "Natural order"). */
  natural?: boolean;
}

/** One list of one type: what storage runs. */
export interface ListQuery {
  type: string;
  /** Restricts to these statuses (anonymous readers see `published` only). */
  statuses?: readonly string[];
  /**
   * Serve each document's pending draft where it has one (`perspective=drafts`, docs/drafts.md):
   * filters, order and anchors apply to the versions served.
   */
  drafts?: boolean;
  /**
   * With `drafts`: only the documents that have (true) or have not (false) a pending draft
   * (`filter[_draft][exists]`, docs/drafts.md, "Reading").
   */
  pendingDraft?: boolean;
  conditions: readonly Condition[];
  untranslated?: Untranslated;
  searchWords?: readonly string[];
  order: ListOrder;
  limit: number;
  offset: number;
}

/** The sort key of one document in a list: a page can start right after it instead of skipping rows. */
export interface PageAnchor {
  /** The document's value of the order's field; null where the field is absent (or the author unknown). */
  value: FilterValue | null;
  /** The document's place in write order, which breaks ties. */
  seq: number;
}
