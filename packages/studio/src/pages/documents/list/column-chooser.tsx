import { useState } from 'react';
import type { Column } from './list-prefs';

/**
 * "Columns": a disclosure of checkboxes, one per column one may show (fields with a column hint,
 * status, updated, created). The choice is kept in the user's preferences for this type.
 */
export function ColumnChooser({ columns, shown, onChange }: { columns: Column[]; shown: string[]; onChange(keys: string[]): void }) {
  const toggle = (key: string, on: boolean) => {
    const next = on ? [...shown, key] : shown.filter((k) => k !== key);
    // In the order the columns come in, whatever order they were ticked in.
    onChange(columns.map((c) => c.key).filter((k) => next.includes(k)));
  };
  // The boxes exist only while open: closed, nothing in it is labelled like the toolbar's filters.
  const [open, setOpen] = useState(false);
  return (
    <details className="list-menu" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Columns</summary>
      {open && (
        <fieldset className="list-menu-panel">
          <legend>Columns shown</legend>
          {columns.map((c) => (
            <label key={c.key} className="inline">
              <input type="checkbox" checked={shown.includes(c.key)} onChange={(e) => toggle(c.key, e.target.checked)} /> {c.label}
            </label>
          ))}
        </fieldset>
      )}
    </details>
  );
}
