import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { localeName, useContentLocale } from '../../queries/content-locale';

/**
 * The content locale a page shows and writes (docs/studio.md, "Locales"), kept in its address
 * (`?locale=de-CH`; none for the default) so a translation can be reloaded and shared. Nothing
 * where the server has no locales.
 */
export function LocaleSwitcher({ label = 'Content locale' }: { label?: string }) {
  const { locales, shown } = useContentLocale();
  const [params, setParams] = useSearchParams();
  const id = useId();
  if (!locales || locales.list.length < 2) return null;
  const choose = (code: string) => {
    const next = new URLSearchParams(params);
    if (code === locales.default) next.delete('locale');
    else next.set('locale', code);
    // A list starts again at its first page in another locale.
    next.delete('page');
    setParams(next);
  };
  return (
    <div className="doc-control locale-switcher">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={shown} onChange={(e) => choose(e.target.value)}>
        {locales.list.map((l) => (
          <option key={l.code} value={l.code}>
            {localeName(locales, l.code)}
            {l.code === locales.default ? ' · default' : ''}
          </option>
        ))}
      </select>
    </div>
  );
}
