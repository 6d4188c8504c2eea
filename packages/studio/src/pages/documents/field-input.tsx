import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { MediaPicker } from './media-picker';
import { ReferencePicker } from './reference-picker';
import { fieldLabel, selectOptions, slugify, type Doc, type Field } from './schema';

const RichTextEditor = lazy(() => import('./richtext-editor'));
const MarkdownField = lazy(() => import('./markdown-field'));

/** Server validation messages by field path (`seo.title`, `tags.0`), from a 422's `details`. */
export type FieldErrors = Record<string, string>;

export interface FieldProps {
  field: Field;
  value: unknown;
  onChange(value: unknown): void;
  /** The dotted path of this value in the document: what 422 `details` name. */
  path: string;
  errors: FieldErrors;
  /** The whole document being edited (a slug reads its `source` from it). */
  doc: Doc;
  disabled?: boolean;
  /** A label other than the field's (array items). */
  label?: string;
}

/** A labelled control with its description and its server error, linked by `aria-describedby`. */
function Labelled({
  p,
  children,
}: {
  p: FieldProps;
  children: (a: { id: string; describedBy?: string; invalid: boolean; required: boolean }) => ReactNode;
}) {
  const id = useId();
  const error = p.errors[p.path];
  const describedBy = [p.field.description ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field" data-field={p.path}>
      <label htmlFor={id} id={`${id}-label`}>
        <span>
          {p.label ?? fieldLabel(p.field)}
          {p.field.required && <span aria-hidden="true"> *</span>}
        </span>
      </label>
      {children({ id, describedBy, invalid: !!error, required: !!p.field.required })}
      {p.field.description && (
        <span id={`${id}-help`} className="field-help">
          {p.field.description}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** A fieldset for the fields made of several controls (arrays, objects, geopoints, slugs). */
function Group({ p, children }: { p: FieldProps; children: ReactNode }) {
  const error = p.errors[p.path];
  return (
    <fieldset className="field" data-field={p.path}>
      <legend>
        {p.label ?? fieldLabel(p.field)}
        {p.field.required && <span aria-hidden="true"> *</span>}
      </legend>
      {p.field.description && <span className="field-help">{p.field.description}</span>}
      {children}
      {error && <span className="field-error">{error}</span>}
    </fieldset>
  );
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const orUndefined = (v: string) => (v === '' ? undefined : v);

/** `2026-11-24T21:03:00.000Z` → the `datetime-local` text in the browser's zone. */
function toLocalInput(iso: unknown): string {
  if (typeof iso !== 'string' || !iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The control for one field of the schema, by its type (docs/api.md, "Schemas"). */
export function FieldInput(p: FieldProps) {
  const { field, value, onChange, disabled } = p;
  switch (field.type) {
    case 'text':
      return (
        <Labelled p={p}>
          {(a) => (
            <textarea
              id={a.id}
              rows={4}
              value={text(value)}
              disabled={disabled}
              aria-describedby={a.describedBy}
              aria-invalid={a.invalid}
              aria-required={a.required}
              onChange={(e) => onChange(orUndefined(e.target.value))}
            />
          )}
        </Labelled>
      );
    case 'number':
    case 'integer':
      return (
        <Labelled p={p}>
          {(a) => (
            <input
              id={a.id}
              type="number"
              step={field.type === 'integer' ? 1 : 'any'}
              min={field.min as number | undefined}
              max={field.max as number | undefined}
              value={typeof value === 'number' ? value : ''}
              disabled={disabled}
              aria-describedby={a.describedBy}
              aria-invalid={a.invalid}
              aria-required={a.required}
              onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
            />
          )}
        </Labelled>
      );
    case 'boolean':
      return (
        <div className="field" data-field={p.path}>
          <label className="inline">
            <input type="checkbox" checked={value === true} disabled={disabled} onChange={(e) => onChange(e.target.checked)} />
            {p.label ?? fieldLabel(field)}
          </label>
          {p.errors[p.path] && <span className="field-error">{p.errors[p.path]}</span>}
        </div>
      );
    case 'select':
      return (
        <Labelled p={p}>
          {(a) => (
            <select
              id={a.id}
              value={text(value)}
              disabled={disabled}
              aria-describedby={a.describedBy}
              aria-invalid={a.invalid}
              aria-required={a.required}
              onChange={(e) => onChange(orUndefined(e.target.value))}
            >
              <option value="">—</option>
              {selectOptions(field).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.title}
                </option>
              ))}
            </select>
          )}
        </Labelled>
      );
    case 'datetime':
      return (
        <Labelled p={p}>
          {(a) => (
            <input
              id={a.id}
              type="datetime-local"
              value={toLocalInput(value)}
              disabled={disabled}
              aria-describedby={a.describedBy}
              aria-invalid={a.invalid}
              aria-required={a.required}
              onChange={(e) => onChange(e.target.value ? new Date(e.target.value).toISOString() : undefined)}
            />
          )}
        </Labelled>
      );
    case 'slug':
      return <SlugInput {...p} />;
    case 'markdown':
      return (
        <Labelled p={p}>
          {(a) => (
            <Suspense fallback={<p className="muted">Loading editor…</p>}>
              <MarkdownField
                id={a.id}
                value={text(value)}
                onChange={(v) => onChange(orUndefined(v))}
                disabled={disabled}
                describedBy={a.describedBy}
              />
            </Suspense>
          )}
        </Labelled>
      );
    case 'richtext':
      return (
        <Labelled p={p}>
          {(a) => (
            <Suspense fallback={<p className="muted">Loading editor…</p>}>
              <RichTextEditor
                id={a.id}
                value={text(value)}
                onChange={(v) => onChange(orUndefined(v))}
                disabled={disabled}
                describedBy={a.describedBy}
              />
            </Suspense>
          )}
        </Labelled>
      );
    case 'reference':
      return (
        <Group p={p}>
          <ReferencePicker
            field={field}
            value={typeof value === 'string' ? value : undefined}
            onChange={onChange}
            disabled={disabled}
            label={p.label ?? fieldLabel(field)}
          />
        </Group>
      );
    case 'image':
    case 'file':
      return (
        <Group p={p}>
          <MediaPicker
            field={field}
            value={typeof value === 'string' ? value : undefined}
            onChange={onChange}
            disabled={disabled}
            label={p.label ?? fieldLabel(field)}
          />
        </Group>
      );
    case 'array':
      return <ArrayInput {...p} />;
    case 'object': {
      const obj = (value && typeof value === 'object' ? value : {}) as Doc;
      return (
        <Group p={p}>
          {((field.fields ?? []) as Field[]).map((child) => (
            <FieldInput
              key={child.name}
              field={child}
              value={obj[child.name]}
              path={`${p.path}.${child.name}`}
              errors={p.errors}
              doc={p.doc}
              disabled={disabled}
              onChange={(v) => {
                const next = { ...obj, [child.name]: v };
                if (v === undefined) delete next[child.name];
                onChange(Object.keys(next).length ? next : undefined);
              }}
            />
          ))}
        </Group>
      );
    }
    case 'geopoint':
      return <GeopointInput {...p} />;
    case 'json':
      return <JsonInput {...p} />;
    default: {
      // string, email, url, date, and any type this studio does not know: a one-line input.
      const inputType = ({ email: 'email', url: 'url', date: 'date' } as Record<string, string>)[field.type] ?? 'text';
      return (
        <Labelled p={p}>
          {(a) => (
            <input
              id={a.id}
              type={inputType}
              value={text(value)}
              maxLength={field.maxLength as number | undefined}
              disabled={disabled}
              aria-describedby={a.describedBy}
              aria-invalid={a.invalid}
              aria-required={a.required}
              onChange={(e) => onChange(orUndefined(e.target.value))}
            />
          )}
        </Labelled>
      );
    }
  }
}

/** `{current}`, with a button that makes it from the `source` field as the server would. */
function SlugInput(p: FieldProps) {
  const id = useId();
  const current = text((p.value as Doc | undefined)?.current);
  const source = typeof p.field.source === 'string' ? p.field.source : undefined;
  const error = p.errors[p.path] ?? p.errors[`${p.path}.current`];
  const set = (v: string) => p.onChange(v ? { current: v } : undefined);
  return (
    <div className="field" data-field={p.path}>
      <label htmlFor={id}>{p.label ?? fieldLabel(p.field)}</label>
      <div className="row">
        <input
          id={id}
          type="text"
          className="grow"
          value={current}
          disabled={p.disabled}
          aria-invalid={!!error}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => set(e.target.value)}
        />
        {source && (
          <button
            type="button"
            disabled={p.disabled || !text(p.doc[source])}
            onClick={() => set(slugify(text(p.doc[source]), (p.field.maxLength as number) ?? 96))}
          >
            Generate from {source}
          </button>
        )}
      </div>
      {source && <span className="field-help">Left empty, the server makes it from {source}.</span>}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** Items of the `of` type, each with move up, move down and remove; "Add" appends one. */
function ArrayInput(p: FieldProps) {
  const items = Array.isArray(p.value) ? (p.value as unknown[]) : [];
  const of = (p.field.of ?? { type: 'string' }) as Field;
  const label = fieldLabel(p.field);
  const set = (next: unknown[]) => p.onChange(next.length ? next : undefined);
  const move = (i: number, by: number) => {
    const next = [...items];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    set(next);
  };
  const max = p.field.maxItems as number | undefined;
  return (
    <Group p={p}>
      {items.length === 0 && <span className="muted">No items.</span>}
      {items.map((item, i) => (
        <div className="array-item" key={i}>
          <FieldInput
            field={{ ...of, name: String(i) }}
            label={`${label} ${i + 1}`}
            value={item}
            path={`${p.path}.${i}`}
            errors={p.errors}
            doc={p.doc}
            disabled={p.disabled}
            onChange={(v) => set(items.map((x, j) => (j === i ? v : x)))}
          />
          <div className="row">
            <button type="button" disabled={p.disabled || i === 0} onClick={() => move(i, -1)} aria-label={`Move ${label} ${i + 1} up`}>
              ↑
            </button>
            <button
              type="button"
              disabled={p.disabled || i === items.length - 1}
              onClick={() => move(i, 1)}
              aria-label={`Move ${label} ${i + 1} down`}
            >
              ↓
            </button>
            <button
              type="button"
              disabled={p.disabled}
              onClick={() => set(items.filter((_, j) => j !== i))}
              aria-label={`Remove ${label} ${i + 1}`}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
      <div>
        <button
          type="button"
          disabled={p.disabled || (max !== undefined && items.length >= max)}
          onClick={() => set([...items, of.type === 'object' ? {} : undefined])}
        >
          Add to {label}
        </button>
      </div>
    </Group>
  );
}

function GeopointInput(p: FieldProps) {
  const point = (p.value && typeof p.value === 'object' ? p.value : {}) as { lat?: number; lng?: number };
  const set = (key: 'lat' | 'lng', raw: string) => {
    const next = { ...point, [key]: raw === '' ? undefined : Number(raw) };
    p.onChange(next.lat === undefined && next.lng === undefined ? undefined : next);
  };
  const label = p.label ?? fieldLabel(p.field);
  return (
    <Group p={p}>
      <div className="row">
        {(['lat', 'lng'] as const).map((key) => (
          <label key={key}>
            {key === 'lat' ? 'Latitude' : 'Longitude'}
            <input
              type="number"
              step="any"
              min={key === 'lat' ? -90 : -180}
              max={key === 'lat' ? 90 : 180}
              aria-label={`${label} ${key === 'lat' ? 'latitude' : 'longitude'}`}
              value={point[key] ?? ''}
              disabled={p.disabled}
              onChange={(e) => set(key, e.target.value)}
            />
            {p.errors[`${p.path}.${key}`] && <span className="field-error">{p.errors[`${p.path}.${key}`]}</span>}
          </label>
        ))}
      </div>
    </Group>
  );
}

/** Any JSON, edited as text: the value changes only while the text parses. */
function JsonInput(p: FieldProps) {
  const [draft, setDraft] = useState(() => (p.value === undefined ? '' : JSON.stringify(p.value, null, 2)));
  const [bad, setBad] = useState<string>();
  return (
    <Labelled p={{ ...p, errors: bad ? { ...p.errors, [p.path]: bad } : p.errors }}>
      {(a) => (
        <textarea
          id={a.id}
          rows={5}
          className="mono"
          value={draft}
          disabled={p.disabled}
          aria-describedby={a.describedBy}
          aria-invalid={a.invalid}
          onChange={(e) => {
            setDraft(e.target.value);
            if (!e.target.value.trim()) {
              setBad(undefined);
              return p.onChange(undefined);
            }
            try {
              p.onChange(JSON.parse(e.target.value));
              setBad(undefined);
            } catch {
              setBad('Not valid JSON yet: the last valid value is kept.');
            }
          }}
        />
      )}
    </Labelled>
  );
}
