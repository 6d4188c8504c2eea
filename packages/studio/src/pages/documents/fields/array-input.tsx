import { FieldInput } from '../field-input';
import { fieldLabel, type Field } from '../schema';
import type { FieldProps } from './field-props';
import { FieldGroup } from './field-wrapper';

/** A new item: the server's `emptyValue` hint for the item type (an object's `{}`), a copy so no two items share it; else no value. */
const newItem = (of: Field): unknown => structuredClone(of.studio?.emptyValue);

/** `array`: items of the `of` type, each with move up, move down and remove; "Add" appends one. */
export function ArrayInput(p: FieldProps) {
  const items = Array.isArray(p.value) ? (p.value as unknown[]) : [];
  const of = (p.field.of ?? { type: 'string' }) as Field;
  const label = fieldLabel(p.field);
  // An emptied array is removed, as an emptied text is.
  const set = (next: unknown[]) => p.onChange(next.length ? next : undefined);
  const move = (i: number, by: number) => {
    const next = [...items];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    set(next);
  };
  const max = p.field.maxItems as number | undefined;
  return (
    <FieldGroup p={p}>
      {items.length === 0 && <span className="muted">No items.</span>}
      {items.map((item, i) => (
        <div className="array-item" key={i}>
          <FieldInput
            field={{ ...of, name: String(i) }}
            label={`${label} ${i + 1}`}
            value={item}
            path={`${p.path}.${i}`}
            errors={p.errors}
            doc={p.doc}
            disabled={p.disabled}
            onChange={(v) => set(items.map((x, j) => (j === i ? v : x)))}
          />
          <div className="row">
            <button type="button" disabled={p.disabled || i === 0} onClick={() => move(i, -1)} aria-label={`Move ${label} ${i + 1} up`}>
              ↑
            </button>
            <button
              type="button"
              disabled={p.disabled || i === items.length - 1}
              onClick={() => move(i, 1)}
              aria-label={`Move ${label} ${i + 1} down`}
            >
              ↓
            </button>
            <button
              type="button"
              disabled={p.disabled}
              onClick={() => set(items.filter((_, j) => j !== i))}
              aria-label={`Remove ${label} ${i + 1}`}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
      <div>
        <button
          type="button"
          disabled={p.disabled || (max !== undefined && items.length >= max)}
          onClick={() => set([...items, newItem(of)])}
        >
          Add to {label}
        </button>
      </div>
    </FieldGroup>
  );
}
