import { FieldInput } from '../field-input';
import type { Doc, Field } from '../schema';
import type { FieldProps } from './field-props';
import { FieldGroup } from './field-wrapper';

/** `object`: its own fields, each at `<path>.<name>`; an object left with no value is removed. */
export function ObjectInput(p: FieldProps) {
  const obj = (p.value && typeof p.value === 'object' ? p.value : {}) as Doc;
  return (
    <FieldGroup p={p}>
      {((p.field.fields ?? []) as Field[]).map((child) => (
        <FieldInput
          key={child.name}
          field={child}
          value={obj[child.name]}
          path={`${p.path}.${child.name}`}
          errors={p.errors}
          doc={p.doc}
          disabled={p.disabled}
          onChange={(v) => {
            const next = { ...obj, [child.name]: v };
            if (v === undefined) delete next[child.name];
            p.onChange(Object.keys(next).length ? next : undefined);
          }}
        />
      ))}
    </FieldGroup>
  );
}
