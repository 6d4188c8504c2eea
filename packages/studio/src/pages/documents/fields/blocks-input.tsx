import { useEffect, useRef, useState } from 'react';
import './blocks-input.css';
import { FieldInput } from '../field-input';
import { fieldLabel, type Doc, type Field } from '../schema';
import type { FieldProps } from './field-props';
import { FieldGroup } from './field-wrapper';
import { DragHandle, SortableList } from './sortable-list';

interface BlockType {
  name: string;
  title?: string;
  fields: Field[];
}

/** A `_key` made here for a new block, so it has a stable identity before the server sees it (which keeps it). */
const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(9)), (n) => (n % 36).toString(36)).join('');

/**
 * `blocks`: a list of typed blocks (docs/api.md, "Blocks"). "Add <block>" appends one; each block
 * has its fields, a handle to reorder it (drag with the pointer, or space, arrows and space on the
 * keyboard: `sortable-list.tsx`), move buttons, collapse and remove. Blocks are told apart by
 * `_key`, so collapsing and focus follow a block as it moves.
 */
export function BlocksInput(p: FieldProps) {
  const items = (Array.isArray(p.value) ? p.value : []) as Doc[];
  const types = (Array.isArray(p.field.of) ? p.field.of : []) as BlockType[];
  const label = fieldLabel(p.field);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const handles = useRef(new Map<string, HTMLButtonElement>());
  const max = p.field.maxItems as number | undefined;

  const keyOf = (item: Doc, i: number) => (typeof item._key === 'string' ? item._key : `index-${i}`);
  const typeOf = (item: Doc) => types.find((t) => t.name === item._type);
  const titleOf = (item: Doc, i: number) => {
    const t = typeOf(item);
    return `${t ? (t.title ?? fieldLabel(t)) : String(item._type)} ${i + 1}`;
  };
  // An emptied list is removed, as an emptied array is.
  const set = (next: Doc[]) => p.onChange(next.length ? next : undefined);
  const move = (from: number, to: number) => {
    if (to < 0 || to >= items.length || from === to) return;
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item);
    setFocusKey(keyOf(item, to));
    set(next);
  };

  // Once, after the move is drawn: typing in a moved block's fields keeps its focus.
  useEffect(() => {
    if (!focusKey) return;
    handles.current.get(focusKey)?.focus();
    setFocusKey(null);
  }, [focusKey]);

  return (
    <FieldGroup p={p}>
      {items.length === 0 && <span className="muted">No blocks.</span>}
      <SortableList
        items={items}
        idOf={keyOf}
        titleOf={titleOf}
        onMove={move}
        label={label}
        layout="column"
        className="blocks"
        disabled={p.disabled}
        itemProps={(item, i) => ({ className: 'block-item', 'aria-label': titleOf(item, i), 'data-block': item._type as string })}
      >
        {(item, i, handle) => {
          const key = keyOf(item, i);
          const title = titleOf(item, i);
          const open = !collapsed.has(key);
          const bodyId = `${p.path}-${key}-body`;
          return (
            <>
              <div className="block-header row">
                <DragHandle
                  handle={{
                    ...handle,
                    ref: (el) => {
                      handle.ref(el);
                      if (el) handles.current.set(key, el as HTMLButtonElement);
                      else handles.current.delete(key);
                    },
                  }}
                  label={`Reorder ${title}`}
                  disabled={p.disabled}
                />
                <strong className="block-title">{title}</strong>
                <button
                  type="button"
                  aria-expanded={open}
                  aria-controls={bodyId}
                  onClick={() => setCollapsed((c) => (open ? new Set([...c, key]) : new Set([...c].filter((k) => k !== key))))}
                >
                  {open ? `Collapse ${title}` : `Expand ${title}`}
                </button>
                <button type="button" disabled={p.disabled || i === 0} onClick={() => move(i, i - 1)} aria-label={`Move ${title} up`}>
                  ↑
                </button>
                <button
                  type="button"
                  disabled={p.disabled || i === items.length - 1}
                  onClick={() => move(i, i + 1)}
                  aria-label={`Move ${title} down`}
                >
                  ↓
                </button>
                <button
                  type="button"
                  disabled={p.disabled}
                  onClick={() => set(items.filter((_, j) => j !== i))}
                  aria-label={`Remove ${title}`}
                >
                  Remove
                </button>
              </div>
              {['_type', '_key'].map((k) =>
                p.errors[`${p.path}.${i}.${k}`] ? (
                  <span key={k} className="field-error">
                    {p.errors[`${p.path}.${i}.${k}`]}
                  </span>
                ) : null,
              )}
              <div id={bodyId} hidden={!open}>
                {(typeOf(item)?.fields ?? []).map((child) => (
                  <FieldInput
                    key={child.name}
                    field={child}
                    label={`${title} ${fieldLabel(child)}`}
                    value={item[child.name]}
                    path={`${p.path}.${i}.${child.name}`}
                    errors={p.errors}
                    doc={p.doc}
                    disabled={p.disabled}
                    onChange={(v) => {
                      const next = { ...item, [child.name]: v };
                      if (v === undefined) delete next[child.name];
                      set(items.map((x, j) => (j === i ? next : x)));
                    }}
                  />
                ))}
              </div>
            </>
          );
        }}
      </SortableList>
      <div className="row">
        {types.map((t) => (
          <button
            key={t.name}
            type="button"
            disabled={p.disabled || (max !== undefined && items.length >= max)}
            onClick={() => set([...items, { _type: t.name, _key: newKey() }])}
          >
            Add {t.title ?? fieldLabel(t)} to {label}
          </button>
        ))}
      </div>
    </FieldGroup>
  );
}
