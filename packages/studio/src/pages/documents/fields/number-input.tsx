import { wrapped } from './field-wrapper';

/** `number` and `integer` (whole steps), within the field's `min` and `max`. */
export const NumberInput = wrapped((p, control) => (
  <input
    {...control}
    type="number"
    step={p.field.type === 'integer' ? 1 : 'any'}
    min={p.field.min as number | undefined}
    max={p.field.max as number | undefined}
    value={typeof p.value === 'number' ? p.value : ''}
    disabled={p.disabled}
    onChange={(e) => p.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
  />
));
