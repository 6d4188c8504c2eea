import { fieldLabel } from '../schema';
import type { FieldProps } from './field-props';

/** `boolean`: a checkbox inside its label, so it needs no wrapper of its own. */
export function BooleanInput(p: FieldProps) {
  const error = p.errors[p.path];
  return (
    <div className="field" data-field={p.path}>
      <label className="inline">
        <input type="checkbox" checked={p.value === true} disabled={p.disabled} onChange={(e) => p.onChange(e.target.checked)} />
        {p.label ?? fieldLabel(p.field)}
      </label>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}
