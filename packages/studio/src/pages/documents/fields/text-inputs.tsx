import { selectOptions } from '../schema';
import { bindText } from './field-props';
import { wrapped } from './field-wrapper';

/** The input types of the one-line fields by field type; any type this studio does not know gets `text`. */
const INPUT_TYPES: Record<string, string> = { email: 'email', url: 'url', date: 'date' };

/** `string`, `email`, `url`, `date`, and the fallback for unknown types: a one-line input. */
export const StringInput = wrapped((p, control) => (
  <input {...control} type={INPUT_TYPES[p.field.type] ?? 'text'} maxLength={p.field.maxLength as number | undefined} {...bindText(p)} />
));

/** `text`: several lines. */
export const TextInput = wrapped((p, control) => <textarea {...control} rows={4} {...bindText(p)} />);

/** `select`: the field's options, and an empty choice that removes the value. */
export const SelectInput = wrapped((p, control) => (
  <select {...control} {...bindText(p)}>
    <option value="">—</option>
    {selectOptions(p.field).map((o) => (
      <option key={o.value} value={o.value}>
        {o.title}
      </option>
    ))}
  </select>
));
