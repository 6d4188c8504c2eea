/**
 * The `fetch` the studio's client uses. Every request goes to the browser's own `fetch`, except
 * one whose body is a stream (`uploadMedia`, docs/client.md): browsers refuse to stream a request
 * body over HTTP/1.1 (Chromium needs HTTP/2 for it, others not at all), and `fetch` reports no
 * upload progress. Such a request is sent with XMLHttpRequest instead, its body read into a Blob
 * first, and the bytes actually sent are reported to the listener registered for its signal.
 */
type Progress = (sent: number, total: number) => void;
const listeners = new WeakMap<AbortSignal, Progress>();

/** Reports the upload progress of the request made with `signal` (one signal per upload). */
export function onUploadProgress(signal: AbortSignal, listener: Progress): void {
  listeners.set(signal, listener);
}

export const uploadFetch: typeof fetch = (input, init) => {
  if (!(init?.body instanceof ReadableStream)) return fetch(input, init);
  return sendWithXhr(String(input instanceof Request ? input.url : input), init, init.body);
};

async function sendWithXhr(url: string, init: RequestInit, stream: ReadableStream): Promise<Response> {
  const body = await new Response(stream).blob();
  const signal = init.signal ?? undefined;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(init.method ?? 'POST', url);
    // The browser sets Content-Length itself (the header is forbidden to scripts).
    for (const [name, value] of new Headers(init.headers)) if (name !== 'content-length') xhr.setRequestHeader(name, value);
    xhr.responseType = 'text';
    const progress = signal && listeners.get(signal);
    if (progress) xhr.upload.onprogress = (e) => progress(e.loaded, e.lengthComputable ? e.total : body.size);
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
