import type { LocalesConfig } from '../../config/locales-section.js';
import { errors, type ErrorDetail } from '../../errors.js';
import { isAllLocales, type LocaleRequest } from './locale-request.js';

/**
 * How a document's localized values are stored (docs/localization.md, "Storage"): the default
 * locale's value of a localized field sits where a shared field's does (`data.title`), and every
 * other locale's under `data._locales[<code>][<field>]`. So a document stays one row with one
 * `_rev`; reading the default locale, filtering and indexing it cost what they cost without
 * locales; and switching `localized` on or off moves nothing (the default's value is where a
 * shared value is). Field names never start with `_`, so the key cannot meet a field.
 */
export const LOCALES_KEY = '_locales';

/** Where an API view of a document keeps the other locales' values until it is served in a locale (document-view.ts). */
export const LOCALE_STORE = Symbol('other locales');

type LocaleMaps = Record<string, Record<string, unknown>>;
type Data = Record<string, unknown>;

const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The other locales' values of a stored document (never undefined). */
export function otherLocales(data: Data): LocaleMaps {
  const maps = data[LOCALES_KEY];
  return isObject(maps) ? (maps as LocaleMaps) : {};
}

/** Where a locale's value of a field sits in the stored data: `[]` for the default, `['_locales', code]` otherwise. */
export const localePrefix = (code: string, locales: LocalesConfig): string[] => (code === locales.default ? [] : [LOCALES_KEY, code]);

/**
 * A stored document's fields as a reader of `request` gets them, in place on `doc` (an API
 * document: system fields beside the stored data): with one locale, each localized field is the
 * value of the first locale of its chain that has one (or absent), `_locale` names the locale
 * and `_fallbacks` the fields served from another (and, in a locale other than the default,
 * `_untranslated` those with a default-locale value but none of their own); with `*`, each localized field is
 * `{<code>: value}` of the locales that have one, and `_locale` is `*`.
 */
export function serveLocale(doc: Data, localized: readonly string[], request: LocaleRequest, locales: LocalesConfig): void {
  const stored = (doc as Record<symbol, unknown>)[LOCALE_STORE];
  const others = stored !== undefined ? (stored as LocaleMaps) : otherLocales(doc);
  if (LOCALES_KEY in doc) delete doc[LOCALES_KEY];
  if (isAllLocales(request)) {
    for (const f of localized) {
      const values: Data = {};
      if (doc[f] !== undefined) values[locales.default] = doc[f];
      for (const { code } of locales.list) if (code !== locales.default && others[code]?.[f] !== undefined) values[code] = others[code][f];
      if (Object.keys(values).length > 0) doc[f] = values;
      else delete doc[f];
    }
    doc._locale = '*';
    return;
  }
  const fallbacks: Record<string, string> = {};
  // In a locale other than the default: the fields it has not translated yet (the studio's status).
  const untranslated: string[] | undefined = request.code === locales.default ? undefined : [];
  for (const f of localized) {
    if (untranslated && doc[f] !== undefined && others[request.code]?.[f] === undefined) untranslated.push(f);
    let served: unknown;
    let from: string | undefined;
    for (const code of request.chain) {
      const v = code === locales.default ? doc[f] : others[code]?.[f];
      if (v !== undefined) {
        served = v;
        from = code;
        break;
      }
    }
    if (served === undefined) delete doc[f];
    else doc[f] = served;
    if (from !== undefined && from !== request.code) fallbacks[f] = from;
  }
  doc._locale = request.code;
  doc._fallbacks = fallbacks;
  if (untranslated) doc._untranslated = untranslated;
}

/**
 * The fields a writer of `request` sees and sends: with one locale, the shared fields and that
 * locale's own values (no fallback: a write never copies another locale's value); with `*`, the
 * shared fields and each localized field as `{<code>: value}`.
 */
export function writerView(data: Data, localized: ReadonlySet<string>, request: LocaleRequest, locales: LocalesConfig): Data {
  const others = otherLocales(data);
  const view: Data = {};
  for (const [k, v] of Object.entries(data)) if (k !== LOCALES_KEY && !localized.has(k)) view[k] = v;
  for (const f of localized) {
    if (isAllLocales(request)) {
      const values: Data = {};
      if (data[f] !== undefined) values[locales.default] = data[f];
      for (const { code } of locales.list) if (code !== locales.default && others[code]?.[f] !== undefined) values[code] = others[code][f];
      if (Object.keys(values).length > 0) view[f] = values;
    } else {
      const v = request.code === locales.default ? data[f] : others[request.code]?.[f];
      if (v !== undefined) view[f] = v;
    }
  }
  return view;
}

/**
 * The stored data after a writer of `request` replaced its view with `view` (a PUT's body, or a
 * PATCH merged over `writerView`): shared fields and the written locale's values from `view`,
 * every other locale's values from `current`. A `*` view's localized fields must be objects of
 * configured locale codes (422 otherwise, paths `title` and `title.xx`). Values are checked
 * afterwards, by the document's validation.
 */
export function fromWriterView(
  view: Data,
  current: Data,
  localized: ReadonlySet<string>,
  request: LocaleRequest,
  locales: LocalesConfig,
): Data {
  const out: Data = {};
  // `_`-keys are system fields or the locale store itself: never taken from a writer.
  for (const [k, v] of Object.entries(view)) if (!localized.has(k) && !k.startsWith('_')) out[k] = v;
  const maps: LocaleMaps = {};
  const keep = (code: string, f: string, v: unknown) => {
    if (v === undefined || v === null) return;
    if (code === locales.default) out[f] = v;
    else (maps[code] ??= {})[f] = v;
  };
  const currentOthers = otherLocales(current);
  if (isAllLocales(request)) {
    const problems: ErrorDetail[] = [];
    const codes = new Set(locales.list.map((l) => l.code));
    for (const f of localized) {
      const values = view[f];
      if (values === undefined || values === null) continue;
      if (!isObject(values)) {
        problems.push({ field: f, message: 'must be an object of locale codes (locale=*), such as {"en": …}' });
        continue;
      }
      for (const [code, v] of Object.entries(values)) {
        if (!codes.has(code)) problems.push({ field: `${f}.${code}`, message: `unknown locale; expected one of ${[...codes].join(', ')}` });
        else keep(code, f, v);
      }
    }
    if (problems.length > 0) throw errors.validation(problems);
  } else {
    for (const f of localized) {
      keep(request.code, f, view[f]);
      // Every other locale keeps its values, the default's included.
      if (request.code !== locales.default) keep(locales.default, f, current[f]);
      for (const { code } of locales.list) if (code !== request.code && code !== locales.default) keep(code, f, currentOthers[code]?.[f]);
    }
  }
  if (Object.keys(maps).length > 0) out[LOCALES_KEY] = maps;
  return out;
}
