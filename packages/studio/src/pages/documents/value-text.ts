import { day, when } from '../../ui/when';
import { stable } from './document-values';
import type { Field } from './schema';

/**
 * A field's stored value as text where it is shown, not edited (the list's columns, the revision
 * diff): a moment or a day (the server's `display` hint, docs/api.md "Schemas") in the browser's
 * locale as the other times of the studio are (`when`, `day`), a number in that locale too, text
 * as it is, anything else as JSON. Nothing is empty text.
 */
export function valueText(field: Field, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') {
    const display = field.studio?.display;
    if (display === 'datetime' && !Number.isNaN(new Date(value).getTime())) return when(value);
    if (display === 'date') return day(value);
    return value;
  }
  // A number as the browser's locale writes it (`1,234.5`, `1.234,5`), as the studio's dates are.
  if (typeof value === 'number') return value.toLocaleString(undefined, { maximumFractionDigits: 20 });
  return stable(value);
}
