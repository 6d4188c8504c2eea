import { selectOptions } from '../schema';
import { bindText } from './field-props';
import { wrapped } from './field-wrapper';

/**
 * The one-line control (`string`, `email`, `url`, `date`, and the fallback for a control this studio
 * does not have): its input type is the server's `input` hint (docs/api.md, "Schemas"), else `text`.
 */
export const StringInput = wrapped((p, control) => (
  <input {...control} type={p.field.studio?.input ?? 'text'} maxLength={p.field.maxLength as number | undefined} {...bindText(p)} />
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
