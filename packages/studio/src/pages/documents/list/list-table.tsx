import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { documentTitle } from '../../../queries/document-title';
import { when } from '../../../ui/when';
import { StatusBadge } from '../status-badge';
import { fieldLabel, type Doc, type Field } from '../schema';
import { valueText } from '../value-text';
import type { Column } from './list-prefs';

/**
 * The list's table: a checkbox per row and one for the page, headers that order the list by
 * their column where the server can (`aria-sort`), and below 600 px one card per document, each
 * value labelled by its column (list.css).
 */
export function ListTable(props: {
  type: string;
  docs: Doc[];
  titleColumn: Column;
  columns: Column[];
  sort: string;
  onSort(sort: string): void;
  selected: ReadonlySet<string>;
  onSelect(ids: string[], on: boolean): void;
  /** A column of what the content locale has translated (`localized` names the fields it looks at). */
  localized?: Field[];
  inLocale: string;
  describedBy: string;
}) {
  const { docs, selected } = props;
  const ids = docs.map((d) => String(d._id));
  const chosen = ids.filter((id) => selected.has(id)).length;
  const all = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (all.current) all.current.indeterminate = chosen > 0 && chosen < ids.length;
  }, [chosen, ids.length]);
  const heads = [props.titleColumn, ...props.columns];
  return (
    <table className="doc-table list-table" aria-describedby={props.describedBy}>
      <thead>
        <tr>
          <th scope="col" className="list-check">
            <input
              ref={all}
              type="checkbox"
              aria-label="Select this page"
              checked={chosen > 0 && chosen === ids.length}
              onChange={(e) => props.onSelect(ids, e.target.checked)}
            />
          </th>
          {heads.map((c, i) => (
            <SortHeader key={c.key} column={c} sort={props.sort} onSort={props.onSort} first={i === 0} />
          ))}
          {props.localized && <th scope="col">Translation</th>}
        </tr>
      </thead>
      <tbody>
        {docs.map((d) => {
          const id = String(d._id);
          const title = documentTitle(d);
          return (
            <tr key={id} aria-selected={selected.has(id)}>
              <td className="list-check">
                <input
                  type="checkbox"
                  aria-label={`Select ${title}`}
                  checked={selected.has(id)}
                  onChange={(e) => props.onSelect([id], e.target.checked)}
                />
              </td>
              <td className="list-title">
                <Link to={`/documents/${props.type}/${id}${props.inLocale}`}>{title}</Link>
              </td>
              {props.columns.map((c) => (
                <td key={c.key} data-label={c.label}>
                  <Cell column={c} doc={d} />
                </td>
              ))}
              {props.localized && (
                <td data-label="Translation">
                  <TranslationStatus missing={(d._untranslated as string[] | undefined) ?? []} fields={props.localized} />
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Cell({ column, doc }: { column: Column; doc: Doc }) {
  if (column.field) return <>{valueText(column.field, doc[column.key])}</>;
  if (column.key === '_status')
    return (
      <>
        <StatusBadge status={doc._status} />
        {/* A published document whose pending draft is not live yet (docs/drafts.md, "Markers"). */}
        {doc._draft ? (
          <>
            {' '}
            <span className="badge badge-changed" title="Unpublished changes in a draft">
              Changed
            </span>
          </>
        ) : null}
      </>
    );
  return <>{when(doc[column.key] ? String(doc[column.key]) : null)}</>;
}

/** A column header; one the server can order by is a button toggling ascending and descending. */
function SortHeader({ column, sort, onSort, first }: { column: Column; sort: string; onSort(s: string): void; first: boolean }) {
  const by = column.sort;
  if (!by)
    return (
      <th scope="col" className={first ? 'list-title' : undefined}>
        {column.label}
      </th>
    );
  const state = sort === by ? 'ascending' : sort === `-${by}` ? 'descending' : 'none';
  return (
    <th scope="col" aria-sort={state} className={first ? 'list-title' : undefined}>
      <button type="button" className="list-sort" onClick={() => onSort(state === 'ascending' ? `-${by}` : by)}>
        {column.label}
        <span aria-hidden="true" className="list-sort-mark">
          {state === 'ascending' ? '▲' : state === 'descending' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}

/** Whether the list's locale has its own value for each localized field that the default locale has. */
function TranslationStatus({ missing, fields }: { missing: string[]; fields: Field[] }) {
  if (missing.length === 0) return <span className="badge badge-published">Translated</span>;
  const names = missing.map((name) => {
    const f = fields.find((x) => x.name === name);
    return f ? fieldLabel(f) : name;
  });
  return <span className="badge badge-draft">Missing: {names.join(', ')}</span>;
}
