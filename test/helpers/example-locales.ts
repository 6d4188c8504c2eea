/**
 * The locales of docs/localization.md's example, as configured and as `resolveConfig` resolves
 * them (the default first, each chain itself first): the config unit test and the HTTP suite
 * share them.
 */
export const EXAMPLE_LOCALES = [
  { code: 'en', name: 'English' },
  { code: 'de' },
  { code: 'de-CH', fallback: 'de' },
  { code: 'fr', fallback: 'en' },
];

export const EXAMPLE_LOCALES_RESOLVED = {
  default: 'en',
  list: [
    { code: 'en', name: 'English' },
    { code: 'de', name: 'de' },
    { code: 'de-CH', name: 'de-CH', fallback: 'de' },
    { code: 'fr', name: 'fr', fallback: 'en' },
  ],
  chains: { en: ['en'], de: ['de'], 'de-CH': ['de-CH', 'de'], fr: ['fr', 'en'] },
};
