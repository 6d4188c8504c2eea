import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { HomeDocument } from '../../queries/home';
import { ErrorMessage } from '../../ui/error-message';
import { when } from '../../ui/when';

/**
 * One section of the home: a titled panel holding a short list, "Loading…" until it answers, its
 * error, or a sentence when there is nothing to show; `more` links on to the page with all of it.
 */
export function HomeSection(props: {
  id: string;
  title: string;
  list: { isPending: boolean; error: unknown; count: number | undefined };
  empty: string;
  more?: { to: string; label: string };
  children: ReactNode;
}) {
  const { id, title, list, empty, more } = props;
  return (
    <section className="panel home-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <ErrorMessage error={list.error} />
      {list.isPending ? (
        <p className="muted">Loading…</p>
      ) : list.count === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        list.count !== undefined && <ul className="home-rows">{props.children}</ul>
      )}
      {more && (
        <p className="home-more">
          <Link to={more.to}>{more.label}</Link>
        </p>
      )}
    </section>
  );
}

/** A document's row: its title linking to its editor, then its type, its state and when it was last edited. */
export function DocumentRow({ doc, by }: { doc: HomeDocument; by?: string }) {
  const state = doc.pendingDraft
    ? 'Unpublished changes'
    : doc.status === 'draft'
      ? 'Draft'
      : doc.status === 'published'
        ? 'Published'
        : 'Archived';
  return (
    <li>
      <Link to={`/documents/${encodeURIComponent(doc.type)}/${encodeURIComponent(doc.id)}`}>{doc.title}</Link>
      <span className="muted home-meta">
        {doc.typeTitle} · {state} · <time dateTime={doc.updatedAt}>{when(doc.updatedAt)}</time>
        {by && ` · ${by}`}
      </span>
    </li>
  );
}
