import { useId, type ReactNode } from 'react';
import { fieldLabel } from '../schema';
import { CharacterCount, characters, maxLengthOf } from './character-count';
import { text, type FieldProps } from './field-props';

/** The attributes a wrapped control spreads onto itself: its id and what describes it. */
export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid': boolean;
  'aria-required': boolean;
}

/**
 * One labelled control with its description and its server error, linked by `aria-describedby`
 * so a screen reader reads both with the control (docs/studio.md, "Pages": 422 messages on
 * their fields). The control itself comes from `children`, given the attributes to spread.
 */
export function FieldWrapper({ p, count, children }: { p: FieldProps; count?: boolean; children: (control: ControlProps) => ReactNode }) {
  const id = useId();
  const error = p.errors[p.path];
  // `count`: a text control shows its length against the field's `maxLength`.
  const max = count ? maxLengthOf(p.field) : undefined;
  const describedBy =
    [p.field.description ? `${id}-help` : '', max !== undefined ? `${id}-count` : '', error ? `${id}-error` : '']
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <div className="field" data-field={p.path}>
      <label htmlFor={id} id={`${id}-label`}>
        <span>
          {p.label ?? fieldLabel(p.field)}
          {p.field.required && <span aria-hidden="true"> *</span>}
        </span>
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': !!error, 'aria-required': !!p.field.required })}
      {p.field.description && (
        <span id={`${id}-help`} className="field-help">
          {p.field.description}
        </span>
      )}
      {max !== undefined && <CharacterCount id={`${id}-count`} length={characters(text(p.value))} max={max} />}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** A fieldset for the fields made of several controls (arrays, objects, geopoints, pickers): the legend labels them all. */
export function FieldGroup({ p, children }: { p: FieldProps; children: ReactNode }) {
  const id = useId();
  const error = p.errors[p.path];
  // The fieldset is described by them, so a screen reader reads them on entering the group.
  const describedBy = [p.field.description ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className="field" data-field={p.path} aria-describedby={describedBy}>
      <legend>
        {p.label ?? fieldLabel(p.field)}
        {p.field.required && <span aria-hidden="true"> *</span>}
      </legend>
      {p.field.description && (
        <span id={`${id}-help`} className="field-help">
          {p.field.description}
        </span>
      )}
      {children}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </fieldset>
  );
}

/** A field control that is one element inside `FieldWrapper`: `render` draws it from the props and the attributes to spread. */
export const wrapped =
  (render: (p: FieldProps, control: ControlProps) => ReactNode, opts: { count?: boolean } = {}) =>
  (p: FieldProps) => (
    <FieldWrapper p={p} count={opts.count}>
      {(control) => render(p, control)}
    </FieldWrapper>
  );
