import { useRef } from 'react';
import { FieldInput } from '../field-input';
import { fieldLabel, type Field } from '../schema';
import type { FieldProps } from './field-props';
import { FieldGroup } from './field-wrapper';
import { DragHandle, SortableList } from './sortable-list';

/** A new item: the server's `emptyValue` hint for the item type (an object's `{}`), a copy so no two items share it; else no value. */
const newItem = (of: Field): unknown => structuredClone(of.studio?.emptyValue);

/**
 * `array`: items of the `of` type, each dragged by its handle (pointer or keyboard:
 * `sortable-list.tsx`), moved up or down by a button, or removed; "Add" appends one. Plain items
 * carry no key of their own, so the control keeps one per item beside the value: focus and the
 * drag follow an item as it moves.
 */
export function ArrayInput(p: FieldProps) {
  const items = Array.isArray(p.value) ? (p.value as unknown[]) : [];
  const of = (p.field.of ?? { type: 'string' }) as Field;
  const label = fieldLabel(p.field);
  const made = useRef(0);
  const keys = useRef<string[]>([]);
  // A value replaced from outside (loaded, restored) with another length gets keys afresh.
  if (keys.current.length !== items.length) keys.current = items.map(() => `item-${made.current++}`);
  // An emptied array is removed, as an emptied text is.
  const set = (next: unknown[], nextKeys: string[]) => {
    keys.current = nextKeys;
    p.onChange(next.length ? next : undefined);
  };
  const moved = <T,>(list: readonly T[], from: number, to: number) => {
    const next = [...list];
    next.splice(to, 0, ...next.splice(from, 1));
    return next;
  };
  const move = (from: number, to: number) => set(moved(items, from, to), moved(keys.current, from, to));
  const itemLabel = (i: number) => `${label} ${i + 1}`;
  const max = p.field.maxItems as number | undefined;
  return (
    <FieldGroup p={p}>
      {items.length === 0 && <span className="muted">No items.</span>}
      <SortableList
        items={items}
        idOf={(_item, i) => keys.current[i]}
        titleOf={(_item, i) => itemLabel(i)}
        onMove={move}
        label={label}
        layout="column"
        className="array-items"
        disabled={p.disabled}
        itemProps={() => ({ className: 'array-item' })}
      >
        {(item, i, handle) => (
          <>
            <DragHandle handle={handle} label={`Reorder ${itemLabel(i)}`} disabled={p.disabled} />
            <div className="array-item-value">
              <FieldInput
                field={{ ...of, name: String(i) }}
                label={itemLabel(i)}
                value={item}
                path={`${p.path}.${i}`}
                errors={p.errors}
                doc={p.doc}
                disabled={p.disabled}
                onChange={(v) =>
                  set(
                    items.map((x, j) => (j === i ? v : x)),
                    keys.current,
                  )
                }
              />
            </div>
            <div className="row">
              <button type="button" disabled={p.disabled || i === 0} onClick={() => move(i, i - 1)} aria-label={`Move ${itemLabel(i)} up`}>
                ↑
              </button>
              <button
                type="button"
                disabled={p.disabled || i === items.length - 1}
                onClick={() => move(i, i + 1)}
                aria-label={`Move ${itemLabel(i)} down`}
              >
                ↓
              </button>
              <button
                type="button"
                disabled={p.disabled}
                onClick={() =>
                  set(
                    items.filter((_, j) => j !== i),
                    keys.current.filter((_, j) => j !== i),
                  )
                }
                aria-label={`Remove ${itemLabel(i)}`}
              >
                Remove
              </button>
            </div>
          </>
        )}
      </SortableList>
      <div>
        <button
          type="button"
          disabled={p.disabled || (max !== undefined && items.length >= max)}
          onClick={() => set([...items, newItem(of)], [...keys.current, `item-${made.current++}`])}
        >
          Add to {label}
        </button>
      </div>
    </FieldGroup>
  );
}
