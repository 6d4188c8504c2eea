import { localeName, type ContentLocaleState } from '../../queries/content-locale';
import type { Doc, Field } from './schema';
import { valueText } from './value-text';

/** At most this many characters of another locale's value are shown beside a field. */
const SHOWN = 160;

/**
 * Beside a localized field edited in a locale other than the default (docs/studio.md, "Locales"):
 * the value it is served with while it has none of its own (greyed, naming the locale it comes
 * from), or else the default locale's value, what the translation is made from. Nothing for
 * shared fields or in the default locale.
 */
export function LocaleNote({
  field,
  locale,
  served,
  inDefault,
  own,
}: {
  field: Field;
  locale: ContentLocaleState;
  /** The document as read in the page's locale (`_fallbacks` names what came from elsewhere). */
  served: Doc | undefined;
  /** The document as read in the default locale. */
  inDefault: Doc | undefined;
  /** The field's value in the form: this locale's own, typed or stored. */
  own: unknown;
}) {
  const { locales, code } = locale;
  if (!code || !locales || field.localized !== true) return null;
  const hasOwn = own !== undefined && own !== null && own !== '';
  const from = (served?._fallbacks as Record<string, string> | undefined)?.[field.name];
  if (!hasOwn && from && served?.[field.name] !== undefined) {
    return (
      <p className="locale-note is-fallback">
        Not translated into {localeName(locales, code)}: readers get the {localeName(locales, from)} value{' '}
        <q>{shown(field, served[field.name])}</q>
      </p>
    );
  }
  const original = inDefault?.[field.name];
  if (original === undefined || original === null) return null;
  return (
    <p className={hasOwn ? 'locale-note' : 'locale-note is-fallback'}>
      {hasOwn ? '' : 'Not translated yet. '}
      {localeName(locales, locales.default)}: <q>{shown(field, original)}</q>
    </p>
  );
}

/** A value as short text: a slug by its `current`, anything long cut. */
function shown(field: Field, value: unknown): string {
  const slug =
    value && typeof value === 'object' && typeof (value as Doc).current === 'string' ? String((value as Doc).current) : undefined;
  const text = slug ?? valueText(field, value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN - 1)}…` : text;
}
