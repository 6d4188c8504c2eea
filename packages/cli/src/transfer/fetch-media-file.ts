import type { Media, VellumClient } from '@vellum/client/node';
import { ItemError } from './error-text.js';

/**
 * The bytes of a media file as they arrive. `url` is origin-relative (`/api/media/files/<key>`)
 * or absolute under `media.publicBaseUrl` (docs/api.md, "Media"). A file under the API's own base
 * URL is read through `client` when one is given (its token, refreshed as needed: files need
 * `media:read` when `media.publicRead` is off); anything else (a CDN) is read with no credential.
 */
export async function fetchMediaFile(
  record: Pick<Media, '_id' | 'url'>,
  baseUrl: string,
  client?: VellumClient,
): Promise<AsyncIterable<Buffer>> {
  const url = new URL(record.url, baseUrl);
  // The URL may come from an export file: nothing but the web (no `file:`, `data:`…).
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ItemError(`media ${record._id}: not an http(s) URL`);
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  const underApi = url.origin === base.origin && url.pathname.startsWith(`${basePath}/`);
  const res =
    client && underApi
      ? await client.transport.send({ method: 'GET', path: url.pathname.slice(basePath.length) })
      : await fetch(url, { redirect: 'error' });
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new ItemError(`media ${record._id}: GET ${url.pathname} answered ${res.status}`);
  }
  const body = res.body;
  return {
    async *[Symbol.asyncIterator]() {
      const reader = body.getReader();
      let done = false;
      try {
        for (;;) {
          const next = await reader.read();
          if ((done = next.done)) return;
          yield Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
        }
      } finally {
        // Left early (a failed write, say): a body left unread would keep its connection busy.
        if (!done) await reader.cancel().catch(() => undefined);
        reader.releaseLock();
      }
    },
  };
}
