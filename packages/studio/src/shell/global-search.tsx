import { useDeferredValue, useId, useState } from 'react';
import { Link } from 'react-router';
import { useStructure } from '../queries/config';
import { useGlobalSearch } from '../queries/use-document-queries';

/**
 * The global search box: the words typed, searched in every document type of the navigation at
 * once (full-text `search` of docs/api.md, "List queries"), five hits per type.
 */
export function GlobalSearch() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const query = useDeferredValue(text.trim());
  const listId = useId();
  const structure = useStructure();
  const types = (structure.data ?? []).flatMap((g) => g.items);
  const results = useGlobalSearch(query, types);
  const hits = results.data ?? [];
  return (
    <div role="search" className="global-search" onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setOpen(false)}>
      <label htmlFor={`${listId}-input`} className="visually-hidden">
        Search documents
      </label>
      <input
        id={`${listId}-input`}
        type="search"
        placeholder="Search documents…"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
        aria-controls={open && query.length >= 2 ? listId : undefined}
        autoComplete="off"
      />
      {open && query.length >= 2 && (
        <div id={listId} className="search-results" role="region" aria-label="Search results" aria-live="polite">
          {results.isFetching && hits.length === 0 && <p className="muted">Searching…</p>}
          {!results.isFetching && hits.length === 0 && <p className="muted">No documents found.</p>}
          {hits.length > 0 && (
            <ul>
              {hits.map((h) => (
                <li key={`${h.type}/${h.id}`}>
                  <Link to={`/documents/${h.type}/${h.id}`} onClick={() => setOpen(false)}>
                    {h.title} <span className="muted">· {h.typeTitle}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
