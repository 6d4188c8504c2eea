import { wrapped } from './field-wrapper';

/** `number` and `integer`, in the step the server's `step` hint gives (whole numbers: 1), within the field's `min` and `max`. */
export const NumberInput = wrapped((p, control) => (
  <input
    {...control}
    type="number"
    step={p.field.studio?.step ?? 'any'}
    min={p.field.min as number | undefined}
    max={p.field.max as number | undefined}
    value={typeof p.value === 'number' ? p.value : ''}
    disabled={p.disabled}
    onChange={(e) => p.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
  />
));
