import type { FieldType } from '../../config/types.js';
import { errors } from '../../errors.js';
import { FIELD_TYPES } from '../../field-types/index.js';
import type { FilterValue } from './list-query.js';

export { SAFE_INTEGER_RANGE } from '../../field-types/number.js';

/** What a filter value is compared with: the field's type and, for integers, the range it is stored in. */
export interface FilterTarget {
  type: FieldType;
  /** Integer columns narrower than a JSON number (`_rev` is a 32-bit column); defaults to SAFE_INTEGER_RANGE. */
  range?: readonly [number, number];
}

export const badParam = (param: string, message: string) => errors.invalidInput(`${param}: ${message}`, [{ field: param, message }]);

/**
 * A filter value typed as the field is stored, so `filter[price]=10` compares numbers. Values a
 * database would read differently from the other (a fraction or 3000000000 against PostgreSQL's
 * 32-bit `integer`, `1e400` read as Infinity) are refused by the type (docs/api.md, "List queries").
 */
export function filterValue(target: FilterTarget, raw: string, param: string): FilterValue {
  const parse = FIELD_TYPES[target.type].filterValue;
  return parse ? parse(raw, (message) => badParam(param, message), target.range) : raw;
}
