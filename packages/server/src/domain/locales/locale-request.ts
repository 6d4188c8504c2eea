import type { LocalesConfig } from '../../config/locales-section.js';
import { errors } from '../../errors.js';

/** One locale asked for: its code as configured, and the locales a read tries, itself first. */
export interface OneLocale {
  code: string;
  chain: readonly string[];
}

/** `locale=<code>`, or `locale=*` (every locale's values, docs/localization.md, "Reads"). */
export type LocaleRequest = OneLocale | { all: true };

export const isAllLocales = (r: LocaleRequest): r is { all: true } => 'all' in r;

/**
 * The `locale` a request names, checked against the configured locales (case-insensitively, as
 * language tags compare; the answer uses the configured spelling). Absent: the default locale.
 * Without configured locales there is nothing to ask for: `locale` is refused, and no request
 * carries a locale (undefined).
 */
export function parseLocale(locales: LocalesConfig | undefined, raw: string | undefined, param = 'locale'): LocaleRequest | undefined {
  if (!locales) {
    if (raw === undefined) return undefined;
    throw errors.invalidInput(`${param}: no locales are configured on this instance`, [
      { field: param, message: 'no locales are configured' },
    ]);
  }
  if (raw === undefined || raw === '') return defaultLocale(locales);
  if (raw === '*') return { all: true };
  const wanted = raw.toLowerCase();
  const code = locales.list.find((l) => l.code.toLowerCase() === wanted)?.code;
  if (code === undefined) {
    const known = locales.list.map((l) => l.code).join(', ');
    throw errors.invalidInput(`${param}: unknown locale ${JSON.stringify(raw)} (expected one of ${known}, or *)`, [
      { field: param, message: `unknown locale; expected one of ${known}, or *` },
    ]);
  }
  return { code, chain: locales.chains[code] };
}

export const defaultLocale = (locales: LocalesConfig): OneLocale => ({ code: locales.default, chain: locales.chains[locales.default] });
