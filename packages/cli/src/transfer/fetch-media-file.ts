import type { Media } from '@vellum/client';

/**
 * The bytes of a media file as they arrive. `url` is origin-relative (`/api/media/files/<key>`)
 * or absolute under `media.publicBaseUrl` (docs/api.md, "Media"); the bearer is sent only to the
 * API's own origin, never to a CDN.
 */
export async function fetchMediaFile(record: Pick<Media, '_id' | 'url'>, baseUrl: string, token?: string): Promise<AsyncIterable<Buffer>> {
  const url = new URL(record.url, baseUrl);
  // The URL comes from an export file: nothing but the web (no `file:`, `data:`…).
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`media ${record._id}: not an http(s) URL`);
  const sameOrigin = url.origin === new URL(baseUrl).origin;
  const res = await fetch(url, { headers: token && sameOrigin ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new Error(`media ${record._id}: GET ${url.pathname} answered ${res.status}`);
  }
  const body = res.body;
  return {
    async *[Symbol.asyncIterator]() {
      const reader = body.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield Buffer.from(value.buffer, value.byteOffset, value.byteLength);
        }
      } finally {
        reader.releaseLock();
      }
    },
  };
}
