/**
 * Well-formed BCP 47 language tags (RFC 5646 §2.1, §2.2.9): the syntax, and the two rules the
 * syntax alone cannot say — a variant appears once, a singleton (extension) appears once
 * (§2.2.5, §2.2.6). Whether a subtag is registered is not checked: a CMS names its locales, and
 * `de-CH` or `sr-Latn` must not wait for a registry update.
 */

// §2.1: the grandfathered tags, matched whole and case-insensitively.
const GRANDFATHERED = new Set(
  [
    'en-GB-oed',
    'i-ami',
    'i-bnn',
    'i-default',
    'i-enochian',
    'i-hak',
    'i-klingon',
    'i-lux',
    'i-mingo',
    'i-navajo',
    'i-pwn',
    'i-tao',
    'i-tay',
    'i-tsu',
    'sgn-BE-FR',
    'sgn-BE-NL',
    'sgn-CH-DE',
    'art-lojban',
    'cel-gaulish',
    'no-bok',
    'no-nyn',
    'zh-guoyu',
    'zh-hakka',
    'zh-min',
    'zh-min-nan',
    'zh-xiang',
  ].map((t) => t.toLowerCase()),
);

// §2.1 langtag: language ["-" script] ["-" region] *("-" variant) *("-" extension) ["-" privateuse].
const LANGTAG = new RegExp(
  '^' +
    '(?<language>[a-z]{2,3}(?:-[a-z]{3}){0,3}|[a-z]{4}|[a-z]{5,8})' +
    '(?:-(?<script>[a-z]{4}))?' +
    '(?:-(?<region>[a-z]{2}|[0-9]{3}))?' +
    '(?<variants>(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*)' +
    '(?<extensions>(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*)' +
    '(?:-x(?:-[a-z0-9]{1,8})+)?' +
    '$',
);
const PRIVATE_USE = /^x(?:-[a-z0-9]{1,8})+$/;

/** True when `tag` is a well-formed language tag (case does not matter, §2.1.1). */
export function isLanguageTag(tag: string): boolean {
  const t = tag.toLowerCase();
  if (GRANDFATHERED.has(t) || PRIVATE_USE.test(t)) return true;
  const m = LANGTAG.exec(t);
  if (!m?.groups) return false;
  const variants = m.groups.variants.split('-').filter(Boolean);
  if (new Set(variants).size !== variants.length) return false;
  const singletons = (m.groups.extensions.match(/-[0-9a-wyz](?=-)/g) ?? []).filter((s, i, all) => all.indexOf(s) !== i);
  return singletons.length === 0;
}
