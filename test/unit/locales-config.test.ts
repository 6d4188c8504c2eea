import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../packages/server/src/config/index.js';
import { isLanguageTag } from '../../packages/server/src/config/language-tag.js';
import { configProblems } from '../helpers/config-problems.js';
import { EXAMPLE_LOCALES, EXAMPLE_LOCALES_RESOLVED } from '../helpers/example-locales.js';

describe('language tags (RFC 5646)', () => {
  // RFC 5646 Appendix A, "Examples of Language Tags (Informative)": every well-formed example.
  const wellFormed = [
    'de',
    'fr',
    'ja',
    'i-enochian',
    'zh-Hant',
    'zh-Hans',
    'sr-Cyrl',
    'sr-Latn',
    'zh-cmn-Hans-CN',
    'cmn-Hans-CN',
    'zh-yue-HK',
    'yue-HK',
    'zh-Hans-CN',
    'sr-Latn-RS',
    'sl-rozaj',
    'sl-rozaj-biske',
    'sl-nedis',
    'de-CH-1901',
    'sl-IT-nedis',
    'hy-Latn-IT-arevela',
    'de-DE',
    'en-US',
    'es-419',
    'de-CH-x-phonebk',
    'az-Arab-x-AZE-derbend',
    'x-whatever',
    'qaa-Qaaa-QM-x-southern',
    'de-Qaaa',
    'sr-Latn-QM',
    'sr-Qaaa-RS',
    'en-US-u-islamcal',
    'zh-CN-a-myext-x-private',
    'en-a-myext-b-another',
  ];
  it.each(wellFormed)('%s is well-formed', (tag) => expect(isLanguageTag(tag)).toBe(true));

  // Appendix A, "Some Invalid Tags", and the §2.2.5/§2.2.6 rules.
  const invalid = [
    'de-419-DE', // two region tags
    'a-DE', // a one-letter primary subtag
    'ar-a-aaa-b-bbb-a-ccc', // the singleton a twice
    'de-DE-1901-1901', // a variant twice
    '',
    'en_US',
    'englishes1',
    'de-',
    'de--CH',
    'x',
    'de-CH-x',
    "en'; drop table documents; --",
  ];
  it.each(invalid)('%j is refused', (tag) => expect(isLanguageTag(tag)).toBe(false));

  it('ignores case (§2.1.1)', () => {
    expect(isLanguageTag('DE-ch')).toBe(true);
    expect(isLanguageTag('I-KLINGON')).toBe(true);
  });
});

describe('locales config (docs/localization.md, "Configuration")', () => {
  it('resolves the default (the first) and each chain, itself first', () => {
    expect(resolveConfig({ locales: EXAMPLE_LOCALES }, {}).locales).toEqual(EXAMPLE_LOCALES_RESOLVED);
    expect(
      resolveConfig({ locales: [{ code: 'en' }, { code: 'de', fallback: 'en' }, { code: 'de-AT', fallback: 'de' }] }, {}).locales?.chains,
    ).toEqual({ en: ['en'], de: ['de', 'en'], 'de-AT': ['de-AT', 'de', 'en'] });
  });

  it('absent: no locales, and no localized field may be declared', () => {
    expect(resolveConfig({}, {}).locales).toBeUndefined();
    expect(
      configProblems({ schemas: [{ name: 'post', title: 'Post', fields: [{ name: 'title', type: 'string', localized: true }] }] }),
    ).toEqual(['schemas[0].fields[0].localized: needs locales in the config (docs/localization.md)']);
  });

  it('refuses bad codes, duplicates, unknown fallbacks, a default that falls back and cycles, one line each', () => {
    expect(configProblems({ locales: [] })).toEqual(['locales: expected a non-empty array of {code, name?, fallback?}']);
    expect(configProblems({ locales: 'en' })).toEqual(['locales: expected a non-empty array of {code, name?, fallback?}']);
    expect(
      configProblems({
        locales: [
          { code: 'en', fallback: 'de' },
          { code: 'de' },
          { code: 'en_GB' },
          { code: 'DE' },
          { code: 'fr', fallback: 'es' },
          { code: 'it', lang: 'x' },
          {},
        ],
      }),
    ).toEqual([
      'locales[2].code: expected a BCP 47 language tag such as "en" or "de-CH" (got "en_GB")',
      'locales[3].code: duplicate locale "DE" (already listed as "de")',
      'locales[5].lang: unknown setting',
      'locales[6].code: expected a language tag such as "de-CH"',
      'locales[0].fallback: the default locale "en" cannot fall back: every other locale is translated from it',
      'locales[4].fallback: "es" is not a configured locale (expected one of en, de, fr, it)',
    ]);
    expect(
      configProblems({
        locales: [{ code: 'en' }, { code: 'de', fallback: 'at' }, { code: 'at', fallback: 'ch' }, { code: 'ch', fallback: 'de' }],
      }),
    ).toEqual(['locales: fallbacks form a cycle: de → at → ch → de']);
  });

  it('localized: top-level fields only, and a slug of a localized source is localized too', () => {
    const locales = [{ code: 'en' }, { code: 'de' }];
    expect(
      configProblems({
        locales,
        schemas: [
          {
            name: 'page',
            title: 'Page',
            fields: [
              { name: 'title', type: 'string', localized: true },
              { name: 'slug', type: 'slug', source: 'title' },
              { name: 'seo', type: 'object', fields: [{ name: 'title', type: 'string', localized: true }] },
              { name: 'sections', type: 'blocks', of: [{ name: 'hero', fields: [{ name: 'heading', type: 'string', localized: false }] }] },
              { name: 'flag', type: 'boolean', localized: 'yes' },
            ],
          },
        ],
      }),
    ).toEqual([
      'schemas[0].fields[1].localized: must be true: its source title is localized',
      'schemas[0].fields[2].fields[0].localized: only top-level fields can be localized: the whole field has one value per locale',
      'schemas[0].fields[3].of[0].fields[0].localized: only top-level fields can be localized: the whole field has one value per locale',
      'schemas[0].fields[4].localized: expected true or false',
    ]);
  });
});
