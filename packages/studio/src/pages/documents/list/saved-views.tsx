import { useId, useState, type FormEvent } from 'react';
import { ErrorMessage } from '../../../ui/error-message';
import type { SavedView } from './list-prefs';

/**
 * "Views": the user's saved views of this type's list (its search, filters, sort, rows and
 * columns by a name), kept in their own preferences; apply one, delete one, or save what is shown.
 */
export function SavedViews(props: {
  views: SavedView[];
  busy: boolean;
  error: unknown;
  onSave(name: string): void;
  onApply(view: SavedView): void;
  onDelete(name: string): void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [open, setOpen] = useState(false);
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    props.onSave(name.trim());
    setName('');
  };
  return (
    <details className="list-menu" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Views{props.views.length ? ` (${props.views.length})` : ''}</summary>
      {open && (
        <div className="list-menu-panel">
          {props.views.length > 0 && (
            <ul className="list-views" aria-label="Saved views">
              {props.views.map((v) => (
                <li key={v.name}>
                  <button type="button" onClick={() => props.onApply(v)}>
                    {v.name}
                  </button>
                  <button type="button" className="danger" aria-label={`Delete view ${v.name}`} onClick={() => props.onDelete(v.name)}>
                    Delete
                  </button>
                </li>
              ))}
            </ul>
          )}
          <form className="list-view-form" onSubmit={save}>
            <label htmlFor={`${id}-name`}>Save this view as</label>
            <input id={`${id}-name`} value={name} maxLength={80} onChange={(e) => setName(e.target.value)} />
            <button type="submit" disabled={props.busy || !name.trim()}>
              Save view
            </button>
          </form>
          <ErrorMessage error={props.error} />
        </div>
      )}
    </details>
  );
}
