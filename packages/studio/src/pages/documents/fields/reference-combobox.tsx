import { useDeferredValue, useId, useState, type KeyboardEvent } from 'react';
import { useReferenceSearch, type DocumentChoice } from '../../../queries/use-document-queries';

interface ReferenceComboboxProps {
  /** The schema names searched (the field's `to`). */
  targets: string[];
  /** The field's label: the input is "Add to <label>". */
  label: string;
  /** The ids already in the list: their options are marked selected, and choosing one again removes it. */
  chosen: ReadonlySet<string>;
  /** No more may be added (`maxItems` reached): only chosen options can be picked, to remove them. */
  full: boolean;
  disabled?: boolean;
  onToggle(choice: DocumentChoice): void;
  /** Described by (the field's limits). */
  describedBy?: string;
}

/**
 * A search box over the documents a reference list may hold, as the WAI-ARIA combobox pattern
 * with a multi-selectable listbox (APG, "Editable Combobox With List Autocomplete"): typing
 * searches (full-text, as the list page: docs/api.md, "List queries"), the up and down arrows move
 * through the results, Enter or a click adds the active one or removes it when already chosen,
 * Escape closes. The search and the list stay as they are, so several can be added in a row.
 */
export function ReferenceCombobox(p: ReferenceComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const search = useDeferredValue(text.trim());
  const results = useReferenceSearch(p.targets, search, open);
  const options = open ? (results.data ?? []) : [];
  const current = Math.min(active, Math.max(options.length - 1, 0));
  const several = p.targets.length > 1;
  const pickable = (o: DocumentChoice) => p.chosen.has(o.id) || !p.full;

  const pick = (o: DocumentChoice | undefined) => {
    if (o && pickable(o)) p.onToggle(o);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return setOpen(true);
      const by = e.key === 'ArrowDown' ? 1 : -1;
      setActive(options.length ? (current + by + options.length) % options.length : 0);
    } else if (e.key === 'Enter') {
      // Never the form's submit: Enter picks here.
      e.preventDefault();
      if (open) pick(options[current]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
    }
  };

  return (
    <div className="reference-combobox" onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setOpen(false)}>
      <label htmlFor={id}>Add to {p.label}</label>
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        placeholder="Search…"
        aria-autocomplete="list"
        aria-expanded={options.length > 0}
        aria-controls={listId}
        aria-activedescendant={options.length ? `${listId}-${current}` : undefined}
        aria-describedby={p.describedBy}
        value={text}
        disabled={p.disabled}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onClick={() => setOpen(true)}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-multiselectable="true"
        aria-label={`${p.label} results`}
        className="picker-results"
        hidden={!options.length}
      >
        {options.map((o, i) => (
          <li
            key={`${o.type}/${o.id}`}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={p.chosen.has(o.id)}
            aria-disabled={!pickable(o) || undefined}
            className={i === current ? 'active' : undefined}
            // Keeps the focus in the input, so the keyboard goes on from where the pointer picked.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => (setActive(i), pick(o))}
          >
            <span aria-hidden="true" className="option-check">
              {p.chosen.has(o.id) ? '✓' : ''}
            </span>
            {o.title}
            {several && <span className="muted"> · {o.type}</span>}
          </li>
        ))}
      </ul>
      {open && results.data?.length === 0 && <span className="muted">Nothing found.</span>}
      <span role="status" className="visually-hidden">
        {open && results.data ? `${results.data.length} found` : ''}
      </span>
    </div>
  );
}
