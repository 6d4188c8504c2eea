// `--scale N`: seeds N posts through the product's bulk insert (bulkInsertDocuments), not one
// request per document. The app is opened in this process on the server's configuration and
// database (never listening); the server itself is stopped meanwhile and started again after.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postBody } from './setup.mjs';
import { localizedPost } from './locale-scenarios.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Documents handed to one call (the operation writes them in transactions of BULK_BATCH_SIZE). */
const CHUNK = 10_000;
/** Documents per transaction: the database is idle while it is seeded, so fewer, larger commits. */
const BATCH = 5_000;
const IN_FLIGHT = 3;
/** Seconds between two seeded posts' `_createdAt`: a million posts span about twelve days. */
const SPACING_S = 1;

/**
 * Seeds `n` published posts: the bodies of run.mjs's `postBody` with unique titles and slugs,
 * `_createdAt` spread over the past (oldest first, the newest a minute ago), written by the
 * admin (`adminId`) as the API's seeding would be. `locales`: with their titles, slugs and bodies
 * in three locales (`localizedPost`, the `locale=*` shape). Answers 100 ids spread over the posts (for
 * scenarios that rotate over documents) and the seeding time.
 */
export async function seedBulk({ configFile, env, n, authorIds, adminId, log, locales = false }) {
  const { createApp, resolveConfig, bulkInsertDocuments } = await import(join(ROOT, 'packages/server/dist/index.js'));
  const config = resolveConfig(JSON.parse(readFileSync(configFile, 'utf8')), { ...process.env, ...env, WEBHOOKS_WORKER: 'false' });
  const app = await createApp(config);
  const actor = { kind: 'user', id: adminId, role: 'admin', permissions: new Set() };
  const newest = Date.now() - 60_000;
  const every = Math.max(1, Math.floor(n / 100));
  const sampleIds = [];
  const t0 = performance.now();
  let done = 0;
  const seedChunk = async (from) => {
    const documents = [];
    for (let i = from; i < Math.min(n, from + CHUNK); i++) {
      const english = { ...postBody(i, authorIds), slug: `post-number-${i}` };
      documents.push({
        ...english,
        ...(locales ? localizedPost(i, english) : {}),
        _status: 'published',
        _createdAt: new Date(newest - (n - 1 - i) * SPACING_S * 1000).toISOString(),
      });
    }
    const locale = locales ? { locale: '*' } : {};
    const { ids } = await bulkInsertDocuments(app.services, { type: 'post', documents, actor, batchSize: BATCH, ...locale });
    ids.forEach((id, k) => (from + k) % every === 0 && (sampleIds[(from + k) / every] = id));
    const before = done;
    done += documents.length;
    if (Math.floor(done / 100_000) > Math.floor(before / 100_000) || done === n)
      log(`bulk-seeded ${done}/${n} posts (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  };
  try {
    // Calls in flight: while the database writes one or two chunks (PostgreSQL runs each
    // transaction in a process of its own), this process validates the next. On SQLite, whose one
    // connection runs in this thread, they simply take turns.
    let next = 0;
    const worker = async () => {
      while (next < n) {
        const from = next;
        next += CHUNK;
        await seedChunk(from);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    await app.close();
  }
  const seconds = (performance.now() - t0) / 1000;
  return { sampleIds, seconds };
}
