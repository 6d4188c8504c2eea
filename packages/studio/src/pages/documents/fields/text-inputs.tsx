import { selectOptions } from '../schema';
import { bindText } from './field-props';
import { wrapped } from './field-wrapper';

/**
 * The one-line control (`string`, `email`, `url`, `date`, and the fallback for a control this studio
 * does not have): its input type is the server's `input` hint (docs/api.md, "Schemas"), else `text`.
 * With `maxLength`, it and `text` count their characters (`character-count.tsx`) rather than stop
 * the typing, so a pasted text too long is seen whole and cut by the writer.
 */
export const StringInput = wrapped((p, control) => <input {...control} type={p.field.studio?.input ?? 'text'} {...bindText(p)} />, {
  count: true,
});

/** `text`: several lines. */
export const TextInput = wrapped((p, control) => <textarea {...control} rows={4} {...bindText(p)} />, { count: true });

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
