/**
 * The key a natural order compares (docs/api.md, "Natural order"): "Chapter 2" before
 * "Chapter 10". Accents are dropped and letters lower-cased; each run of ASCII digits loses its
 * leading zeros and, up to 20 digits long, is padded with zeros to 20, so compared byte by byte
 * numbers of up to 20 digits compare by value. Text that is not a string has no key (null: absent
 * values keep their place in the order).
 *
 * SQLite calls this function (registered on every connection as `vellum_natural_key`); the read
 * worker receives its source text, so it must use nothing outside its body. PostgreSQL computes
 * the same key in SQL (postgres/postgres-natural-key.ts); both engines compare keys by bytes.
 */
export function naturalSortKey(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[0-9]+/g, (run) => {
      const digits = run.replace(/^0+/, '');
      return digits.length <= 20 ? digits.padStart(20, '0') : digits;
    });
}

/** The name SQLite's connections know the key by. */
export const NATURAL_KEY_FUNCTION = 'vellum_natural_key';
