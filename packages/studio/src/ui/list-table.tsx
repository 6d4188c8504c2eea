import type { ReactNode } from 'react';
import { ErrorMessage } from './error-message';

/** What a list query gives: a page of items (`{data, meta}` from the client) or its error. */
export interface ListQuery<T> {
  data?: { data: T[] };
  error: unknown;
  isPending: boolean;
}

interface ListTableProps<T> {
  /** The region's name, what a screen reader announces for the table. */
  label: string;
  columns: string[];
  /** A last column of buttons, its heading read to screen readers only. */
  actions?: boolean;
  list: ListQuery<T>;
  /** The sentence shown for an empty list. */
  empty: string;
  /** One row (`<tr>`) for an item. */
  children: (item: T) => ReactNode;
}

/**
 * A list read from the server as a table: its error, "Loading…" until the first answer, a
 * sentence when it is empty, else the table in a labelled region that scrolls sideways on a
 * narrow screen (focusable, so the keyboard can scroll it too). A later refetch's error is shown
 * above the rows already there.
 */
export function ListTable<T>(props: ListTableProps<T>) {
  return (
    <>
      <ErrorMessage error={props.list.error} />
      <ListBody {...props} />
    </>
  );
}

function ListBody<T>({ label, columns, actions, list, empty, children }: ListTableProps<T>) {
  if (list.isPending) return <p className="muted">Loading…</p>;
  const items = list.data?.data;
  if (!items) return null;
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table className="data-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c}>
                {c}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{items.map(children)}</tbody>
      </table>
    </div>
  );
}
