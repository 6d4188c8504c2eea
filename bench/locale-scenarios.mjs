// Localization's figure in `npm run bench` (docs/localization.md): `list20_expand_locale`.
import { api, pool } from './setup.mjs';

/** A three-step chain: Swiss German falls back to German, German to English (the default). */
export const BENCH_LOCALES = [{ code: 'en' }, { code: 'de', fallback: 'en' }, { code: 'de-CH', fallback: 'de' }];

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
    if (i % 10 < 9) await patch(postIds[i], 'de', { title: `Beitrag Nummer ${i}`, body: `# Beitrag ${i}\n\nEin Text auf Deutsch.` });
    if (i % 10 < 7)
      await patch(postIds[i], 'de-CH', { title: `Biitrag Nummere ${i}`, body: `# Biitrag ${i}\n\nEn Text uf Schwiizerdütsch.` });
  });
  log(`${postIds.length} posts translated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
