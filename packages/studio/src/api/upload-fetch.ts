/**
 * The `fetch` the studio's client uses. `client.uploadMedia` sends a File as a Blob body
 * (docs/client.md), which the browser's `fetch` sends well, but `fetch` reports no upload
 * progress. So a request with a Blob body whose signal has a progress listener registered
 * (`onUploadProgress`) is sent with XMLHttpRequest instead, which reports the bytes actually sent;
 * every other request goes to the browser's own `fetch`. The client's retry after a 401 comes
 * through here again with the same signal, so it is reported too.
 */
type Progress = (sent: number, total: number) => void;
const listeners = new WeakMap<AbortSignal, Progress>();

/** Reports the upload progress of the request made with `signal` (one signal per upload). */
export function onUploadProgress(signal: AbortSignal, listener: Progress): void {
  listeners.set(signal, listener);
}

export const uploadFetch: typeof fetch = (input, init) => {
  const progress = init?.signal ? listeners.get(init.signal) : undefined;
  if (!progress || !(init?.body instanceof Blob)) return fetch(input, init);
  return sendWithXhr(String(input instanceof Request ? input.url : input), init, init.body, progress);
};

function sendWithXhr(url: string, init: RequestInit, body: Blob, progress: Progress): Promise<Response> {
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method ?? 'POST', url);
    // The browser sets Content-Length itself (the header is forbidden to scripts).
    for (const [name, value] of new Headers(init.headers)) if (name !== 'content-length') xhr.setRequestHeader(name, value);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => progress(e.loaded, e.lengthComputable ? e.total : body.size);
    xhr.onload = () => {
      const headers = new Headers();
      for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
        const at = line.indexOf(':');
        if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      const empty = xhr.status === 204 || xhr.status === 304;
      resolve(new Response(empty ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText, headers }));
    };
    xhr.onerror = () => reject(new TypeError('Failed to fetch'));
    xhr.onabort = () => reject(signal?.reason ?? new DOMException('The upload was aborted', 'AbortError'));
    if (signal?.aborted) return xhr.onabort(new ProgressEvent('abort'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
