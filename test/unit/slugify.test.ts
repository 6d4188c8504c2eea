import { describe, expect, it } from 'vitest';
import { slugify } from '../../packages/server/src/field-types/slugify.js';

/** The slug rule of docs/api.md ("Slugs"): never empty for a title with letters, in any script. */
describe('slugify', () => {
  it.each([
    ['Hello, World!', 'hello-world'],
    ['  --Leading and trailing--  ', 'leading-and-trailing'],
    ['Straße über Ærø — Привет', 'strasse-ueber-aero-privet'],
    ['Ça va? Œuvre', 'ca-va-oeuvre'],
    ['Łódź', 'lodz'],
    ['İstanbul', 'istanbul'],
    ['Việt Nam', 'viet-nam'],
    ['Καλημέρα κόσμε', 'kalimera-kosme'],
    ['Ünïcödé Cafe\u0301', 'uenicoede-cafe'],
    // Compatibility forms fold (NFKC): a ligature, full-width letters.
    ['ﬁne ＡＢＣ', 'fine-abc'],
  ])('transliterates %j → %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it.each([
    ['東京タワー', '東京タワー'],
    ['北京欢迎你', '北京欢迎你'],
    ['한국어 2024', '한국어-2024'],
    ['שלום עולם', 'שלום-עולם'],
    // Vowel signs and the virama are marks: kept, or the word would be misspelt.
    ['हिन्दी भाषा', 'हिन्दी-भाषा'],
    ['ภาษาไทย', 'ภาษาไทย'],
    ['Grüße 🚀 — 日本語', 'gruesse-日本語'],
  ])('keeps the letters of a script without transliteration: %j → %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('follows the content locale where the library has rules for it', () => {
    expect(slugify('Räksmörgås', 96, 'sv')).toBe('raksmorgas');
    expect(slugify('Räksmörgås', 96, 'de')).toBe('raeksmoergas');
    expect(slugify('Blåbærsyltetøy', 96, 'nb')).toBe('blaabaersyltetoey');
    // A region or a locale without rules of its own: its language's, or the general ones.
    expect(slugify('Räksmörgås', 96, 'sv-FI')).toBe('raksmorgas');
    expect(slugify('Räksmörgås', 96, 'fr')).toBe('raeksmoergas');
  });

  it('is empty only for a text without letters or digits', () => {
    expect(slugify('🚀 — !!')).toBe('');
    expect(slugify('')).toBe('');
    expect(slugify('🚀 1')).toBe('1');
  });

  it('cuts at the limit between graphemes and never ends with "-"', () => {
    expect(slugify('a'.repeat(200))).toHaveLength(96);
    expect(slugify('abc def ghi', 4)).toBe('abc');
    // The 96 limit holds over a larger maxLength.
    expect(slugify('b'.repeat(200), 500)).toHaveLength(96);
    // A letter is never parted from its marks: `न्` stays whole or goes.
    const hindi = slugify('हिन्दी', 3);
    expect(hindi).toBe('हि');
    expect([...slugify('日本語のタイトル'.repeat(20), 10)]).toHaveLength(10);
  });

  it('is idempotent: a slug sent back unchanged is kept', () => {
    for (const title of ['Straße über Ærø — Привет', '東京タワー', 'हिन्दी भाषा', 'ﬁne ＡＢＣ']) {
      const once = slugify(title);
      expect(slugify(once)).toBe(once);
    }
  });
});
