import { useEffect, useId, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useSession } from '../../auth/session';
import { documentTitle } from '../../queries/document-title';
import { useDocumentList, useReferenceOptions } from '../../queries/use-document-queries';
import { ErrorMessage } from '../../ui/error-message';
import { usePageTitle } from '../../ui/page-title';
import { when } from '../../ui/when';
import './documents.css';
import { StatusBadge } from './status-badge';
import { allows, fieldLabel, fieldsOf, referenceTargets, selectOptions, STATUSES, useSchema, type Field } from './schema';
import { valueText } from './value-text';
import { LocaleSwitcher } from './locale-switcher';
import { useContentLocale } from '../../queries/content-locale';

const PAGE_SIZE = 20;

/**
 * The documents of one type: full-text search, filters on status, select and reference fields,
 * sort and pages (docs/api.md, "List queries"). The state lives in the address (`?q=&sort=&page=
 * &f.<field>=`), so a filtered list can be reloaded and shared.
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
  const filterable = fields.filter((f) => f.studio?.listFilter);
  const sortable = fields.filter((f) => f.studio?.sortable);
  const search = params.get('q') ?? '';
  const sort = params.get('sort') ?? '-_updatedAt';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filters: Record<string, string> = {};
  for (const [k, v] of params) if (k.startsWith('f.') && v) filters[k.slice(2)] = v;

  // In a content locale other than the default (docs/studio.md, "Locales"): values, filters and
  // order through its chain, a column of what it has translated, a filter for what it has not.
  const locale = useContentLocale();
  const untranslated = !!locale.code && params.get('untranslated') === '1';
  const localized = fields.filter((f) => f.localized === true);
  const translating = !!locale.code && localized.length > 0;
  const list = useDocumentList(type, {
    search,
    sort,
    page,
    pageSize: PAGE_SIZE,
    filters,
    ...(locale.code ? { locale: locale.code, untranslated } : {}),
  });
  const inLocale = locale.code ? `?locale=${encodeURIComponent(locale.code)}` : '';

  // A singleton has one document: its page is that document's form (or the form creating it).
  const first = list.data?.data[0];
  const singleton = schema?.type === 'singleton';
  useEffect(() => {
    // Unawaited: the router handles a failed navigation itself.
    if (singleton && list.data && !list.isFetching)
      void navigate(`/documents/${type}/${first ? String(first._id) : 'new'}`, { replace: true });
  }, [singleton, list.data, list.isFetching, first, type, navigate]);

  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };

  const total = list.data?.meta.total ?? 0;
  // A filtered list of a large type counts only so far (docs/api.md, "Totals"): its total is a
  // lower bound, so the pager says "more than" and goes on while pages come back full.
  const bounded = list.data?.meta.totalExact === false;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const hasNext = bounded ? (list.data?.data.length ?? 0) === PAGE_SIZE : page < pages;
  const canWrite = allows(session, 'content:write', type);
  const shown = fields.filter((f) => f.studio?.column).slice(1, 3);

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
      <div className="doc-toolbar" role="search" aria-label={`Search ${title}`}>
        <Control label={`Search ${title}`}>
          {(cid) => (
            <input
              id={cid}
              type="search"
              value={search}
              onChange={(e) => set('q', e.target.value)}
              placeholder="Words in any text field…"
            />
          )}
        </Control>
        <Control label="Status">
          {(cid) => (
            <select id={cid} value={filters._status ?? ''} onChange={(e) => set('f._status', e.target.value)}>
              <option value="">Any</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Control>
        {filterable.map((f) => (
          <FilterSelect key={f.name} field={f} value={filters[f.name] ?? ''} onChange={(v) => set(`f.${f.name}`, v)} />
        ))}
        <LocaleSwitcher />
        {translating && (
          <div className="doc-control doc-check">
            <label>
              <input type="checkbox" checked={untranslated} onChange={(e) => set('untranslated', e.target.checked ? '1' : '')} /> Missing
              translations
            </label>
          </div>
        )}
        <Control label="Sort by">
          {(cid) => (
            <select id={cid} value={sort} onChange={(e) => set('sort', e.target.value)}>
              <option value="-_updatedAt">Last updated</option>
              <option value="-_createdAt">Newest</option>
              <option value="_createdAt">Oldest</option>
              {sortable.flatMap((f) => [
                <option key={f.name} value={f.name}>
                  {fieldLabel(f)} (A→Z)
                </option>,
                <option key={`-${f.name}`} value={`-${f.name}`}>
                  {fieldLabel(f)} (Z→A)
                </option>,
              ])}
            </select>
          )}
        </Control>
      </div>
      <ErrorMessage error={list.error} />
      {list.data && list.data.data.length === 0 && (
        <p className="muted">{search || untranslated || Object.keys(filters).length ? 'No documents match.' : 'No documents yet.'}</p>
      )}
      {list.data && list.data.data.length > 0 && (
        <table className="doc-table" aria-describedby={`${id}-count`}>
          <thead>
            <tr>
              <th scope="col">Title</th>
              {shown.map((f) => (
                <th scope="col" key={f.name}>
                  {fieldLabel(f)}
                </th>
              ))}
              {translating && <th scope="col">Translation</th>}
              <th scope="col">Status</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((d) => (
              <tr key={String(d._id)}>
                <td>
                  <Link to={`/documents/${type}/${String(d._id)}${inLocale}`}>{documentTitle(d)}</Link>
                </td>
                {shown.map((f) => (
                  <td key={f.name}>{valueText(f, d[f.name])}</td>
                ))}
                {translating && (
                  <td>
                    <TranslationStatus missing={(d._untranslated as string[] | undefined) ?? []} fields={localized} />
                  </td>
                )}
                <td>
                  <StatusBadge status={d._status} />
                  {/* A published document whose pending draft is not live yet (docs/drafts.md, "Markers"). */}
                  {d._draft ? (
                    <>
                      {' '}
                      <span className="badge badge-changed" title="Unpublished changes in a draft">
                        Changed
                      </span>
                    </>
                  ) : null}
                </td>
                <td>{when(String(d._updatedAt))}</td>
              </tr>
            ))}
          </tbody>
        </table>
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

/** Whether the list's locale has its own value for each localized field that the default locale has. */
function TranslationStatus({ missing, fields }: { missing: string[]; fields: Field[] }) {
  if (missing.length === 0) return <span className="badge badge-published">Translated</span>;
  const names = missing.map((name) => {
    const f = fields.find((x) => x.name === name);
    return f ? fieldLabel(f) : name;
  });
  return <span className="badge badge-draft">Missing: {names.join(', ')}</span>;
}

/** A filter by a field's options (select) or by the documents it may point at (reference: the first 100). */
function FilterSelect({ field, value, onChange }: { field: Field; value: string; onChange: (v: string) => void }) {
  const targets = referenceTargets(field);
  const refs = useReferenceOptions(targets, field.studio?.listFilter === 'documents');
  const options = field.studio?.listFilter === 'options' ? selectOptions(field) : (refs.data ?? []);
  return (
    <Control label={fieldLabel(field)}>
      {(cid) => (
        <select id={cid} value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">Any</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.title}
            </option>
          ))}
        </select>
      )}
    </Control>
  );
}

/** A toolbar control with a `for` label (a wrapping label would name a select by its options too). */
function Control({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="doc-control">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}
