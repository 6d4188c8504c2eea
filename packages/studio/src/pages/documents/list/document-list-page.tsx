import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useSession } from '../../../auth/session';
import { documentTitle } from '../../../queries/document-title';
import { useContentLocale } from '../../../queries/content-locale';
import { usePreferences, useUpdatePreferences } from '../../../queries/preferences';
import { useDocumentList } from '../../../queries/use-document-queries';
import { ErrorMessage } from '../../../ui/error-message';
import { usePageTitle } from '../../../ui/page-title';
import '../documents.css';
import './list.css';
import { allows, fieldLabel, fieldsOf, useSchema } from '../schema';
import { BulkBar } from './bulk-bar';
import { matchingIds, SELECT_ALL_CAP } from './bulk-run';
import { ColumnChooser } from './column-chooser';
import { choosableColumns, defaultColumns, listPrefs, withListPrefs, type Column, type SavedView } from './list-prefs';
import { ListTable } from './list-table';
import { ListToolbar, PAGE_SIZES } from './list-toolbar';
import { SavedViews } from './saved-views';

/**
 * The documents of one type (docs/studio.md, "Lists"): full-text search, filters on status,
 * select and reference fields, sort by a header or the toolbar, pages (docs/api.md, "List
 * queries"); the state lives in the address (`?q=&sort=&size=&page=&f.<field>=`), so a filtered
 * list can be reloaded and shared. Rows are selected for bulk actions; the columns and saved
 * views are the user's own preferences.
 */
export default function DocumentListPage() {
  const { type = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const { schema, error: schemaError } = useSchema(type);
  const title = schema?.title ?? type;
  usePageTitle(title);
  const id = useId();

  const fields = fieldsOf(schema);
  const search = params.get('q') ?? '';
  const sort = params.get('sort') ?? '-_updatedAt';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const size = Number(params.get('size'));
  const pageSize = PAGE_SIZES.includes(size) ? size : PAGE_SIZES[0];
  const filters: Record<string, string> = {};
  for (const [k, v] of params) if (k.startsWith('f.') && v) filters[k.slice(2)] = v;

  // In a content locale other than the default (docs/studio.md, "Locales"): values, filters and
  // order through its chain, a column of what it has translated, a filter for what it has not.
  const locale = useContentLocale();
  const untranslated = !!locale.code && params.get('untranslated') === '1';
  const localized = fields.filter((f) => f.localized === true);
  const translating = !!locale.code && localized.length > 0;
  const query = { search, sort, filters, ...(locale.code ? { locale: locale.code, untranslated } : {}) };
  // Titles and names sort naturally, "Chapter 2" before "Chapter 10" (the field type's hint).
  const natural = fields.find((f) => f.name === sort.replace(/^-/, ''))?.studio?.naturalOrder === true;
  const list = useDocumentList(type, { ...query, ...(natural && { natural }), page, pageSize });
  const inLocale = locale.code ? `?locale=${encodeURIComponent(locale.code)}` : '';

  // A singleton has one document: its page is that document's form (or the form creating it).
  const first = list.data?.data[0];
  const singleton = schema?.type === 'singleton';
  useEffect(() => {
    // Unawaited: the router handles a failed navigation itself.
    if (singleton && list.data && !list.isFetching)
      void navigate(`/documents/${type}/${first ? String(first._id) : 'new'}`, { replace: true });
  }, [singleton, list.data, list.isFetching, first, type, navigate]);

  // The selection holds ids across pages; another type, search or filter starts it afresh.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [gathering, setGathering] = useState<{ capped: boolean } | 'busy' | Error>();
  const scope = JSON.stringify([type, query]);
  useEffect(() => {
    setSelected(new Set());
    setGathering(undefined);
  }, [scope]);
  const select = (ids: string[], on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const x of ids)
        if (on) next.add(x);
        else next.delete(x);
      return next;
    });
  const clear = () => {
    setSelected(new Set());
    setGathering(undefined);
  };
  // Every title seen on this page's lists, so a bulk result still names a document that left the page.
  const titles = useRef(new Map<string, string>()).current;
  for (const d of list.data?.data ?? []) titles.set(String(d._id), documentTitle(d));

  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };

  // Columns and views: the user's own, per type (`studio.lists.<type>` in their preferences).
  const prefs = usePreferences();
  const update = useUpdatePreferences();
  const mine = listPrefs(prefs, type);
  const choosable = choosableColumns(fields);
  const shownKeys = (mine.columns ?? defaultColumns(fields)).filter((k) => choosable.some((c) => c.key === k));
  const columns = shownKeys.map((k) => choosable.find((c) => c.key === k)!);
  const titleField = fields.find((f) => f.studio?.column);
  const titleColumn: Column = {
    key: '_title',
    label: titleField ? fieldLabel(titleField) : 'Title',
    ...(titleField?.studio?.sortable && { sort: titleField.name }),
  };
  const setColumns = (keys: string[]) => update.update((p) => withListPrefs(p, type, { ...listPrefs(p, type), columns: keys }));
  const views = mine.views ?? [];
  const viewQuery = () => {
    const q = new URLSearchParams(params);
    q.delete('page');
    return q.toString();
  };
  const saveView = (name: string) =>
    update.update((p) => {
      const own = listPrefs(p, type);
      const view: SavedView = { name, query: viewQuery(), columns: shownKeys };
      return withListPrefs(p, type, { ...own, views: [...(own.views ?? []).filter((v) => v.name !== name), view] });
    });
  const applyView = (view: SavedView) => {
    setParams(new URLSearchParams(view.query), { replace: true });
    setColumns(view.columns);
  };
  const deleteView = (name: string) =>
    update.update((p) => {
      const own = listPrefs(p, type);
      return withListPrefs(p, type, { ...own, views: (own.views ?? []).filter((v) => v.name !== name) });
    });

  const rows = list.data?.data ?? [];
  const total = list.data?.meta.total ?? 0;
  // A filtered list of a large type counts only so far (docs/api.md, "Totals"): its total is a
  // lower bound, so the pager says "more than" and goes on while pages come back full.
  const bounded = list.data?.meta.totalExact === false;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const hasNext = bounded ? rows.length === pageSize : page < pages;
  const canWrite = allows(session, 'content:write', type);
  const pageChosen = rows.length > 0 && rows.every((d) => selected.has(String(d._id)));
  const more = bounded || total > rows.length;

  const selectAll = async () => {
    setGathering('busy');
    try {
      const ids = await matchingIds(type, query);
      setSelected(new Set(ids));
      setGathering({ capped: ids.length >= SELECT_ALL_CAP });
    } catch (err) {
      setGathering(err as Error);
    }
  };

  return (
    <>
      <div className="doc-header">
        <h1>{title}</h1>
        {canWrite && (
          <button
            type="button"
            className="primary"
            // Unawaited: the router handles a failed navigation itself.
            onClick={() => void navigate(`/documents/${type}/new`)}
          >
            New {title}
          </button>
        )}
      </div>
      <ErrorMessage error={schemaError} />
      <ListToolbar
        title={title}
        fields={fields}
        search={search}
        filters={filters}
        sort={sort}
        pageSize={pageSize}
        translating={translating}
        untranslated={untranslated}
        set={set}
      >
        <div className="list-menus">
          <ColumnChooser columns={choosable} shown={shownKeys} onChange={setColumns} />
          <SavedViews
            views={views}
            busy={update.isPending}
            error={update.error}
            onSave={saveView}
            onApply={applyView}
            onDelete={deleteView}
          />
        </div>
      </ListToolbar>
      <ErrorMessage error={list.error} />
      {pageChosen && more && (
        <p className="list-select-all" role="status">
          {gathering === 'busy' ? (
            'Gathering the matching documents…'
          ) : gathering && !(gathering instanceof Error) ? (
            gathering.capped ? (
              `The first ${SELECT_ALL_CAP.toLocaleString()} matching documents are selected (a bulk action takes at most ${SELECT_ALL_CAP.toLocaleString()}).`
            ) : (
              `All ${selected.size.toLocaleString()} matching documents are selected.`
            )
          ) : (
            <>
              All {rows.length.toLocaleString()} on this page are selected.{' '}
              <button type="button" className="link" onClick={() => void selectAll()}>
                Select all {bounded ? `more than ${total.toLocaleString()}` : total.toLocaleString()} matching
              </button>
            </>
          )}
        </p>
      )}
      {gathering instanceof Error && <ErrorMessage error={gathering} />}
      <BulkBar
        type={type}
        ids={[...selected]}
        titles={titles}
        session={session}
        onClear={clear}
        onKeep={(keep) => (setSelected(new Set(keep)), setGathering(undefined))}
      />
      {list.data && rows.length === 0 && (
        <p className="muted">{search || untranslated || Object.keys(filters).length ? 'No documents match.' : 'No documents yet.'}</p>
      )}
      {rows.length > 0 && (
        <ListTable
          type={type}
          docs={rows}
          titleColumn={titleColumn}
          columns={columns}
          sort={sort}
          onSort={(s) => set('sort', s)}
          selected={selected}
          onSelect={select}
          localized={translating ? localized : undefined}
          inLocale={inLocale}
          describedBy={`${id}-count`}
        />
      )}
      <nav className="pager" aria-label="Pages">
        <span id={`${id}-count`} className="muted">
          {bounded
            ? `More than ${total.toLocaleString()} documents · page ${page}`
            : `${total.toLocaleString()} document${total === 1 ? '' : 's'} · page ${page.toLocaleString()} of ${pages.toLocaleString()}`}
        </span>
        <button type="button" disabled={page <= 1} onClick={() => set('page', String(page - 1))}>
          Previous page
        </button>
        <button type="button" disabled={!hasNext} onClick={() => set('page', String(page + 1))}>
          Next page
        </button>
      </nav>
    </>
  );
}
