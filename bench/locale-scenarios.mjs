// Localization's figure in `npm run bench` (docs/localization.md): `list20_expand_locale`.
import { api, pool } from './setup.mjs';

/** A three-step chain: Swiss German falls back to German, German to English (the default). */
export const BENCH_LOCALES = [{ code: 'en' }, { code: 'de', fallback: 'en' }, { code: 'de-CH', fallback: 'de' }];

/** Which locales post `i` has its own title and body in: German nine in ten, Swiss German seven in ten. */
const hasGerman = (i) => i % 10 < 9;
const hasSwissGerman = (i) => i % 10 < 7;
const germanTitle = (i) => `Beitrag Nummer ${i}`;
const swissTitle = (i) => `Biitrag Nummere ${i}`;

/**
 * Post `i`'s localized fields in the `locale=*` shape, for the bulk seeding at scale (`--scale N
 * --locales`): the same translations `seedLocales` makes through the API, with their slugs (a bulk
 * insert brings its own).
 */
export function localizedPost(i, english) {
  const title = { en: english.title };
  const slug = { en: `post-number-${i}` };
  const body = { en: english.body };
  if (hasGerman(i)) {
    title.de = germanTitle(i);
    slug.de = `beitrag-nummer-${i}`;
    body.de = `# Beitrag ${i}\n\nEin Text auf Deutsch.`;
  }
  if (hasSwissGerman(i)) {
    title['de-CH'] = swissTitle(i);
    slug['de-CH'] = `biitrag-nummere-${i}`;
    body['de-CH'] = `# Biitrag ${i}\n\nEn Text uf Schwiizerdütsch.`;
  }
  return { title, slug, body };
}

/**
 * The reads through the chain at scale (docs/localization.md, "Querying"), on the server without
 * the response cache, as [name, path, options] for run.mjs:
 * - `filter_locale`: posts whose Swiss German title (through de-CH → de → en) equals a value,
 *   rotating over posts served from each step of the chain;
 * - `order_locale`: the first page ordered by that title.
 */
export function scaleLocaleScenarios(n) {
  let k = 0;
  const titleOf = (i) => (hasSwissGerman(i) ? swissTitle(i) : hasGerman(i) ? germanTitle(i) : `Post number ${i}`);
  const filter = {
    requests: [
      {
        setupRequest: (req) => {
          // Spread over the table: 100 posts, a tenth of them per last digit (so every chain step).
          const i = (Math.floor((k * n) / 100) + (k % 10)) % n;
          k = (k + 1) % 100;
          return { ...req, path: `/api/documents/post?limit=20&locale=de-CH&filter[title]=${encodeURIComponent(titleOf(i))}` };
        },
      },
    ],
  };
  return [
    ['filter_locale', '', filter],
    ['order_locale', '/api/documents/post?limit=20&locale=de-CH&orderBy=title&order=asc'],
  ];
}

/**
 * Translates the seeded posts, as editors would, through `PATCH ?locale=`: German title and body
 * for nine in ten, Swiss German for seven in ten (so 30 % of posts miss the first locale of the
 * chain, and a tenth fall back two steps, to English). Runs against a server started with
 * BENCH_LOCALES and the post's title and body localized: the English values stored before are
 * the default locale's.
 */
export async function seedLocales({ base, token, postIds, log }) {
  const t0 = Date.now();
  const patch = async (id, locale, body) => {
    const res = await api(base, 'PATCH', `/api/documents/post/${id}?locale=${locale}`, token, body);
    if (res.status !== 200) throw new Error(`locale seed: ${res.status} ${JSON.stringify(res.json)}`);
  };
  await pool(postIds.length, 20, async (i) => {
    if (hasGerman(i)) await patch(postIds[i], 'de', { title: germanTitle(i), body: `# Beitrag ${i}\n\nEin Text auf Deutsch.` });
    if (hasSwissGerman(i))
      await patch(postIds[i], 'de-CH', { title: swissTitle(i), body: `# Biitrag ${i}\n\nEn Text uf Schwiizerdütsch.` });
  });
  log(`${postIds.length} posts translated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
