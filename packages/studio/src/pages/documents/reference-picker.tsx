import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { Link } from 'react-router';
import { client } from '../../api/client';
import { documentTitle } from '../../shell/global-search';
import { referenceTargets, type Field } from './schema';

interface Target {
  type: string;
  id: string;
  title: string;
}

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

  const chosen = useQuery({
    queryKey: ['documents', 'reference', targets, value],
    enabled: !!value,
    queryFn: async (): Promise<Target | null> => {
      for (const type of targets) {
        try {
          const d = await client.collections(type).get(value!);
          return { type, id: d._id, title: documentTitle(d) };
        } catch {
          // Not of this type (or gone): try the next one the field allows.
        }
      }
      return null;
    },
  });
  const results = useQuery({
    queryKey: ['documents', 'reference-search', targets, search],
    enabled: open,
    queryFn: async () => {
      const lists = await Promise.all(
        targets.map(async (type) => {
          let q = client.collections(type).query().orderBy('-_updatedAt').limit(10);
          if (search) q = q.search(search);
          const { data } = await q.page();
          return data.map((d): Target => ({ type, id: d._id, title: documentTitle(d) }));
        }),
      );
      return lists.flat();
    },
  });

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
