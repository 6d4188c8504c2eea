import type { ComponentType } from 'react';
import { ReferencePicker } from '../reference-picker';
import { fieldLabel, type Field } from '../schema';
import type { FieldProps } from './field-props';
import { FieldGroup } from './field-wrapper';

/** The props a picker takes: the value is one id (`image` and `file` are `./image-input.tsx`). */
type PickerProps = { field: Field; value?: string; onChange(value: unknown): void; disabled?: boolean; label: string };

function PickerInput({ p, Picker }: { p: FieldProps; Picker: ComponentType<PickerProps> }) {
  return (
    <FieldGroup p={p}>
      <Picker
        field={p.field}
        value={typeof p.value === 'string' ? p.value : undefined}
        onChange={p.onChange}
        disabled={p.disabled}
        label={p.label ?? fieldLabel(p.field)}
      />
    </FieldGroup>
  );
}

/** `reference`: a document of the allowed types, searched by title. */
export const ReferenceInput = (p: FieldProps) => <PickerInput p={p} Picker={ReferencePicker} />;
