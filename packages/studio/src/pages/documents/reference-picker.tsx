import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { useReferenceChoice, useReferenceSearch } from '../../queries/use-document-queries';
import { referenceTargets, type Field } from './schema';

/**
 * A reference field: the chosen document (its title and a link), and a search over the types
 * the field allows (`to`), full-text as in the list (docs/api.md, "List queries").
 */
export function ReferencePicker(props: { field: Field; value?: string; onChange(v: unknown): void; disabled?: boolean; label: string }) {
  const { field, value, onChange, disabled, label } = props;
  const targets = referenceTargets(field);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const search = useDeferredValue(text.trim());

  const chosen = useReferenceChoice(targets, value);
  const results = useReferenceSearch(targets, search, open);

  return (
    <div className="stack">
      <div className="row">
        {value ? (
          chosen.data ? (
            <Link to={`/documents/${chosen.data.type}/${chosen.data.id}`}>{chosen.data.title}</Link>
          ) : (
            <span className="muted">{chosen.isPending ? 'Loading…' : `Missing document ${value}`}</span>
          )
        ) : (
          <span className="muted">None chosen</span>
        )}
        {!disabled && (
          <>
            <button type="button" onClick={() => setOpen(!open)} aria-expanded={open}>
              {value ? 'Change' : 'Choose'} <span className="visually-hidden">{label}</span>
            </button>
            {value && (
              <button type="button" onClick={() => onChange(undefined)} aria-label={`Clear ${label}`}>
                Clear
              </button>
            )}
          </>
        )}
      </div>
      {open && !disabled && (
        <div className="stack">
          <label>
            Search {label}
            <input type="search" value={text} onChange={(e) => setText(e.target.value)} autoFocus />
          </label>
          {results.data && results.data.length === 0 && <span className="muted">Nothing found.</span>}
          {results.data && results.data.length > 0 && (
            <ul className="picker-results" aria-label={`${label} results`}>
              {results.data.map((r) => (
                <li key={`${r.type}/${r.id}`}>
                  <button
                    type="button"
                    onClick={() => {
                      onChange(r.id);
                      setOpen(false);
                      setText('');
                    }}
                  >
                    {r.title}
                    {targets.length > 1 && <span className="muted"> · {r.type}</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
