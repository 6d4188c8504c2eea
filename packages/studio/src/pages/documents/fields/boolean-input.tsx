import { useId } from 'react';
import { fieldLabel } from '../schema';
import type { FieldProps } from './field-props';

/** `boolean`: a checkbox inside its label, so it needs no wrapper of its own; the description and error are linked to it as in `FieldWrapper`. */
export function BooleanInput(p: FieldProps) {
  const id = useId();
  const error = p.errors[p.path];
  const describedBy = [p.field.description ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field" data-field={p.path}>
      <label className="inline">
        <input
          type="checkbox"
          checked={p.value === true}
          disabled={p.disabled}
          aria-describedby={describedBy}
          aria-invalid={!!error}
          onChange={(e) => p.onChange(e.target.checked)}
        />
        {p.label ?? fieldLabel(p.field)}
      </label>
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
