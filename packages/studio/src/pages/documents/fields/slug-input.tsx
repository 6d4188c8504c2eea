import { useId } from 'react';
// The server's own rule (docs/api.md, "Slugs"), so "Generate" shows what a save would make.
import { slugify } from '@vellum/server/slugify';
import { useContentLocale } from '../../../queries/content-locale';
import { fieldLabel, type Doc } from '../schema';
import { CharacterCount, characters, maxLengthOf } from './character-count';
import { text, type FieldProps } from './field-props';

/** `slug`: `{current}`, with a button that makes it from the `source` field as the server would. */
export function SlugInput(p: FieldProps) {
  const id = useId();
  // Transliterated by the rules of the locale written, as on the server (docs/localization.md).
  const { shown, locales } = useContentLocale();
  const locale = p.field.localized ? shown : locales?.default;
  const current = text((p.value as Doc | undefined)?.current);
  const source = typeof p.field.source === 'string' ? p.field.source : undefined;
  // The server may name the object or its `current` (docs/api.md, "Schemas").
  const error = p.errors[p.path] ?? p.errors[`${p.path}.current`];
  const set = (v: string) => p.onChange(v ? { current: v } : undefined);
  const max = maxLengthOf(p.field);
  const describedBy =
    [p.field.description ? `${id}-help` : '', max !== undefined ? `${id}-count` : '', error ? `${id}-error` : '']
      .filter(Boolean)
      .join(' ') || undefined;
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
          aria-describedby={describedBy}
          onChange={(e) => set(e.target.value)}
        />
        {source && (
          <button
            type="button"
            disabled={p.disabled || !text(p.doc[source])}
            onClick={() => set(slugify(text(p.doc[source]), (p.field.maxLength as number) ?? 96, locale))}
          >
            Generate from {source}
          </button>
        )}
      </div>
      {p.field.description && (
        <span id={`${id}-help`} className="field-help">
          {p.field.description}
        </span>
      )}
      {source && <span className="field-help">Left empty, the server makes it from {source}.</span>}
      {max !== undefined && <CharacterCount id={`${id}-count`} length={characters(current)} max={max} />}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}
