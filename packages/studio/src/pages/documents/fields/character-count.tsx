import type { Field } from '../schema';
import './character-count.css';

/** The field's `maxLength` when it has one. */
export const maxLengthOf = (f: Field): number | undefined => (typeof f.maxLength === 'number' ? f.maxLength : undefined);

/** Characters as the server counts them for `maxLength`: code points, not UTF-16 units (docs/api.md, "Schemas"). */
export const characters = (s: string) => [...s].length;

/**
 * "12 / 60" under a field with `maxLength`, linked to its control by `aria-describedby`; past the
 * limit it says by how much, in words as well as colour. The control lets one type past it (the
 * count is the guide): the server refuses an over-long value with a 422 on the field.
 */
export function CharacterCount({ id, length, max }: { id: string; length: number; max: number }) {
  const over = length - max;
  return (
    <span id={id} className={over > 0 ? 'char-count over' : 'char-count'}>
      <span aria-hidden="true">
        {length} / {max}
      </span>
      <span className="visually-hidden">
        {length} of {max} characters
      </span>
      {over > 0 && <span>, {over} too many</span>}
    </span>
  );
}
