import { useDeferredValue, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useStructure } from '../queries/config';
import { useGlobalSearch } from '../queries/use-document-queries';
import { CloseIcon, SearchIcon } from '../ui/icons';

/**
 * The global search box: the words typed, searched in every document type of the navigation at
 * once (full-text `search` of docs/api.md, "List queries"), five hits per type. On a phone it
 * hides behind an icon button that opens it across the header; Escape or its close button shuts
 * it and focus returns to the icon (docs/studio.md, "Small screens").
 */
export function GlobalSearch() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const query = useDeferredValue(text.trim());
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const structure = useStructure();
  const types = (structure.data ?? []).flatMap((g) => g.items);
  const results = useGlobalSearch(query, types);
  const hits = results.data ?? [];
  useEffect(() => {
    if (expanded) input.current?.focus();
  }, [expanded]);
  function collapse() {
    setOpen(false);
    if (!expanded) return;
    setExpanded(false);
    toggle.current?.focus();
  }
  return (
    <>
      <button
        ref={toggle}
        type="button"
        className="quiet icon-button search-toggle"
        aria-label="Search"
        aria-expanded={expanded}
        aria-controls={`${listId}-search`}
        onClick={() => setExpanded(true)}
      >
        <SearchIcon />
      </button>
      <div
        id={`${listId}-search`}
        role="search"
        className="global-search"
        data-open={expanded}
        onBlur={(e) => {
          if (e.currentTarget.contains(e.relatedTarget)) return;
          setOpen(false);
          setExpanded(false);
        }}
      >
        <label htmlFor={`${listId}-input`} className="visually-hidden">
          Search documents
        </label>
        <input
          ref={input}
          id={`${listId}-input`}
          type="search"
          placeholder="Search documents…"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={(e) => e.key === 'Escape' && collapse()}
          aria-controls={open && query.length >= 2 ? listId : undefined}
          autoComplete="off"
        />
        <button type="button" className="quiet icon-button search-close" aria-label="Close search" onClick={collapse}>
          <CloseIcon />
        </button>
        {open && query.length >= 2 && (
          <div id={listId} className="search-results" role="region" aria-label="Search results" aria-live="polite">
            {results.isFetching && hits.length === 0 && <p className="muted">Searching…</p>}
            {!results.isFetching && hits.length === 0 && <p className="muted">No documents found.</p>}
            {hits.length > 0 && (
              <ul>
                {hits.map((h) => (
                  <li key={`${h.type}/${h.id}`}>
                    <Link
                      to={`/documents/${h.type}/${h.id}`}
                      onClick={() => {
                        setOpen(false);
                        setExpanded(false);
                      }}
                    >
                      {h.title} <span className="muted">· {h.typeTitle}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </>
  );
}
