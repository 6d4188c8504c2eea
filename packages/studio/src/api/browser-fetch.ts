/**
 * `fetch` for the client in the browser. The client sends media uploads as a streamed body
 * (docs/client.md, "Everything else"); browsers send a streamed request body only over HTTP/2
 * and fail it over HTTP/1.1 ("Failed to fetch"). Here the stream is read into a Blob first — the
 * client's `onProgress` then follows the reading, and the file is in memory once, which a page
 * picking files from the user's disk can afford.
 */
export const browserFetch: typeof fetch = async (input, init) => {
  if (init?.body instanceof ReadableStream) {
    const body = await new Response(init.body).blob();
    const { duplex: _duplex, ...rest } = init as RequestInit & { duplex?: string };
    return fetch(input, { ...rest, body });
  }
  return fetch(input, init);
};
