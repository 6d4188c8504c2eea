// What the benchmark scripts share besides process plumbing (lib.mjs): the bench database and
// content model, HTTP helpers and the documents they seed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

export const PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';
export const ADMIN = { username: 'admin', password: 'bench-password-1', email: 'admin@example.com' };

/** One statement on the maintenance database (create/drop the throwaway bench database). */
export const pgAdmin = (statement) => pgQuery(PG_ADMIN_URL, statement);

/** One statement on the database at `url` (the benchmark's own, or the maintenance one). */
export async function pgQuery(url, statement) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function api(base, method, path, token, body) {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000), // a stuck request fails the run instead of hanging it
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

/** Runs fn(i) for i in [0, n) with at most `limit` calls in flight; results keep their index. */
export async function pool(n, limit, fn) {
  const out = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      out[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return out;
}

/** Creates one document and aborts the whole run on anything but 201: seeding must be exact. */
export async function create(base, token, type, body) {
  const res = await api(base, 'POST', `/api/documents/${type}`, token, { ...body, _status: 'published' });
  if (res.status !== 201) throw new Error(`seeding ${type}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.data._id;
}

export const CATEGORIES = ['news', 'guide', 'opinion'];
export const postBody = (i, authorIds) => ({
  title: `Post number ${i}`,
  body: `# Post ${i}\n\n` + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. '.repeat(4).slice(0, 290),
  category: CATEGORIES[i % CATEGORIES.length],
  price: (i % 500) + 0.99,
  author: authorIds[i % authorIds.length],
});

/** CPU time (user + system) a process has used so far, in microseconds; null without /proc. */
export function cpuMicros(pid) {
  try {
    // Fields 14 and 15 of /proc/PID/stat, after the parenthesised command name (which may hold spaces).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // clock ticks are 1/100 s on Linux
  } catch {
    return null;
  }
}

/**
 * Writes a server configuration into `tmp` (the bench schemas: authors and posts) with these
 * `documents` settings, and `locales` when given, and returns its path.
 */
export const writeConfig = (tmp, name, documents, { locales } = {}) => {
  const file = join(tmp, name);
  // With `locales`, the post's title and body are localized (and its slug, made from the title).
  const localized = locales ? { localized: true } : {};
  writeFileSync(
    file,
    JSON.stringify({
      security: { adminUser: ADMIN, bcryptRounds: 4 }, // cheap hashing: login is not what we measure
      documents,
      ...(locales ? { locales } : {}),
      webhooks: { allowPrivateNetworks: true }, // the receiver is on loopback
      schemas: [
        {
          name: 'author',
          fields: [
            { name: 'name', type: 'string', required: true },
            { name: 'bio', type: 'text' },
          ],
        },
        {
          name: 'post',
          fields: [
            // Indexed with locales: the queries through the chain at scale (`--scale N --locales`) are index reads.
            { name: 'title', type: 'string', required: true, ...localized, ...(locales ? { indexed: true } : {}) },
            { name: 'slug', type: 'slug', source: 'title', ...localized },
            { name: 'body', type: 'markdown', ...localized },
            { name: 'category', type: 'select', options: CATEGORIES },
            { name: 'price', type: 'number', indexed: true },
            { name: 'author', type: 'reference', to: 'author' },
          ],
        },
      ],
    }),
  );
  return file;
};
