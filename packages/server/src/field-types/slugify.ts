import transliterate from '@sindresorhus/transliterate';

const MAX_SLUG = 96;

/**
 * The scripts @sindresorhus/transliterate spells in Latin letters. Other scripts (Han, Kana,
 * Hangul, Hebrew, Devanagari, Thai…) are kept as they are, marks included: the library would
 * strip their vowel signs and length marks as if they were accents.
 */
const SPELLED =
  /(?:[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Arabic}\p{Script=Armenian}\p{Script=Georgian}\p{Script=Thaana}]\p{M}*)+/gu;
const OTHER = /[^\p{L}\p{M}\p{Nd}]+/gu;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The slug of a text (docs/api.md, "Slugs"): compatibility forms folded (NFKC: `ﬁ` → `fi`, full
 * width → ASCII), letters of Latin, Greek, Cyrillic, Arabic… transliterated (`ß` → `ss`, `Æ` → `ae`,
 * `Привет` → `privet`, by the content locale's rules where it has some: German `ü` → `ue`,
 * Swedish `ö` → `o`), letters of other scripts kept, lower-cased, every other run → one `-`,
 * trimmed, at most `maxLength` (≤ 96) characters cut between graphemes. Never empty for a text
 * with a letter or a digit.
 */
export function slugify(input: string, maxLength = MAX_SLUG, locale?: string): string {
  const slug = input
    .normalize('NFKC')
    .replace(SPELLED, (run) => transliterate(run, { locale }))
    .toLowerCase()
    .replace(OTHER, '-')
    .replace(/^-+|-+$/g, '');
  return cut(slug, Math.min(maxLength, MAX_SLUG)).replace(/-+$/g, '');
}

/** At most `max` code points, never between a letter and its marks. */
function cut(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  let out = '';
  for (const { segment } of graphemes.segment(slug)) {
    if ([...out].length + [...segment].length > max) break;
    out += segment;
  }
  return out;
}
