import type { ChunkReader, UploadMediaOptions, UploadSource } from './media.js';

/** A `multipart/form-data` request body whose length is known before a byte of the file is read. */
export interface MultipartUploadBody {
  body: ReadableStream<Uint8Array>;
  length: number;
  contentType: string;
}

const encoder = new TextEncoder();

/** The parts of the multipart body around the file's bytes. */
interface Frame {
  preamble: Uint8Array<ArrayBuffer>;
  epilogue: Uint8Array<ArrayBuffer>;
  contentType: string;
}

/** The `file` part's headers before the bytes; the `alt` and `title` parts and the closing boundary after. */
function frame(filename: string, type: string | undefined, opts: UploadMediaOptions): Frame {
  const boundary = `----VellumBoundary${randomHex(16)}`;
  const preamble = encoder.encode(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="file"; filename="${quotedFilename(filename)}"; filename*=UTF-8''${rfc5987(filename)}\r\n` +
      `Content-Type: ${partContentType(opts.contentType ?? type)}\r\n\r\n`,
  );
  let tail = '';
  for (const field of ['alt', 'title'] as const) {
    const value = opts[field];
    if (value !== undefined) tail += `\r\n--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}`;
  }
  const epilogue = encoder.encode(`${tail}\r\n--${boundary}--\r\n`);
  return { preamble, epilogue, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A `multipart/form-data` body for a Blob, itself a Blob: its length is known and nothing is copied. */
export interface MultipartBlobBody {
  body: Blob;
  length: number;
  contentType: string;
}

/**
 * The body of `POST /media` for a Blob or File, as a Blob made of [head, file, tail]: the file's
 * bytes are referenced, not copied. Browsers send a Blob body over HTTP/1.1 (they refuse a stream
 * body there), and they and Node's fetch both send it with its `Content-Length`.
 */
export function multipartBlobBody(blob: Blob, opts: UploadMediaOptions = {}): MultipartBlobBody {
  const { preamble, epilogue, contentType } = frame(opts.filename ?? blobName(blob), blob.type || undefined, opts);
  const body = new Blob([preamble, blob, epilogue], { type: contentType });
  return { body, length: body.size, contentType };
}

/**
 * The body of `POST /media` as a stream: the `file` part streamed from the Blob or the source (a
 * file on disk with `@vellum/client/node`), then the `alt` and `title` parts, with `onProgress`
 * called as the consumer pulls each chunk. The stream is pull-driven (high-water mark 0) so
 * progress follows what the request actually sent, and only one chunk of the file is in memory at
 * a time.
 */
export async function multipartUploadBody(input: Blob | UploadSource, opts: UploadMediaOptions = {}): Promise<MultipartUploadBody> {
  const source = input instanceof Blob ? blobSource(input) : input;
  const { preamble, epilogue, contentType } = frame(opts.filename ?? source.name, source.type, opts);
  const length = preamble.byteLength + source.size + epilogue.byteLength;

  let phase: 'preamble' | 'file' | 'epilogue' = 'preamble';
  let reader: ChunkReader | undefined;
  let fileBytes = 0;
  let sent = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let chunk: Uint8Array | undefined;
        if (phase === 'preamble') {
          reader = await source.open();
          chunk = preamble;
          phase = 'file';
        } else if (phase === 'file') {
          do chunk = await reader!.next();
          while (chunk !== undefined && chunk.byteLength === 0);
          if (chunk !== undefined) {
            fileBytes += chunk.byteLength;
          } else {
            await reader!.close();
            // A file that shrank since its size was taken would break the announced Content-Length.
            if (fileBytes !== source.size) throw new Error(`${source.name} changed while it was being uploaded`);
            chunk = epilogue;
            phase = 'epilogue';
          }
        }
        if (chunk === undefined) return;
        controller.enqueue(chunk);
        sent += chunk.byteLength;
        if (phase === 'epilogue') controller.close();
        opts.onProgress?.(sent, length);
      },
      async cancel() {
        await reader?.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, length, contentType };
}

/** A File's name; a bare Blob has none. */
function blobName(blob: Blob): string {
  const name = (blob as Blob & { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : 'upload';
}

function blobSource(blob: Blob): UploadSource {
  return {
    name: blobName(blob),
    size: blob.size,
    type: blob.type || undefined,
    async open() {
      const reader = blob.stream().getReader();
      return {
        next: async () => {
          const r = await reader.read();
          return r.done ? undefined : r.value;
        },
        close: () => reader.cancel(),
      };
    },
  };
}

/** The quoted `filename` fallback: a quote, backslash or control character could end the header or the parameter early. */
function quotedFilename(name: string): string {
  // eslint-disable-next-line no-control-regex -- the control characters are what must not reach the header
  return name.replace(/["\\\u0000-\u001f\u007f]/g, '_');
}

/** RFC 5987 `ext-value` characters: encodeURIComponent leaves `!'()*` as they are, which attr-char does not allow. */
function rfc5987(name: string): string {
  return encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function partContentType(type: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- a parameter with a control character is refused
  return type && /^[\w.+-]+\/[\w.+-]+(\s*;[^\u0000-\u001f\u007f]*)?$/.test(type) ? type : 'application/octet-stream';
}

function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}
