import { useId, type ReactNode } from 'react';
import { useReferenceOptions } from '../../../queries/use-document-queries';
import { LocaleSwitcher } from '../locale-switcher';
import { fieldLabel, referenceTargets, selectOptions, STATUSES, type Field } from '../schema';

export const PAGE_SIZES = [20, 50, 100];

/** Search, filters on status, select and reference fields, the content locale, sort and rows per page. */
export function ListToolbar(props: {
  title: string;
  fields: Field[];
  search: string;
  filters: Record<string, string>;
  sort: string;
  pageSize: number;
  /** Shown in a content locale with localized fields: "Missing translations". */
  translating: boolean;
  untranslated: boolean;
  set(key: string, value: string): void;
  children?: ReactNode;
}) {
  const { title, fields, filters, set } = props;
  const filterable = fields.filter((f) => f.studio?.listFilter);
  const sortable = fields.filter((f) => f.studio?.sortable);
  return (
    <div className="doc-toolbar" role="search" aria-label={`Search ${title}`}>
      <Control label={`Search ${title}`}>
        {(cid) => (
          <input
            id={cid}
            type="search"
            value={props.search}
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
      {props.translating && (
        <div className="doc-control doc-check">
          <label>
            <input type="checkbox" checked={props.untranslated} onChange={(e) => set('untranslated', e.target.checked ? '1' : '')} />{' '}
            Missing translations
          </label>
        </div>
      )}
      <Control label="Sort by">
        {(cid) => (
          <select id={cid} value={props.sort} onChange={(e) => set('sort', e.target.value)}>
            <option value="-_updatedAt">Last updated</option>
            <option value="_updatedAt">Least recently updated</option>
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
      <Control label="Rows">
        {(cid) => (
          <select id={cid} value={props.pageSize} onChange={(e) => set('size', e.target.value === '20' ? '' : e.target.value)}>
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        )}
      </Control>
      {props.children}
    </div>
  );
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
