import { VellumClient as BrowserClient, type ClientOptions } from './client.js';
import { fileUploadSource } from './file-upload-source.js';
import type { UploadMediaOptions, UploadSource } from './media.js';
import type { SchemaMap, UntypedSchemas } from './schema-types.js';
import { multipartUploadBody as bodyOf, type MultipartUploadBody } from './multipart-upload-body.js';

/**
 * `@vellum/client/node`: everything of `@vellum/client`, with file paths accepted wherever an
 * upload is (the main entry imports no `node:` module, so it also runs in browsers).
 */
export * from './index.js';
export { fileUploadSource } from './file-upload-source.js';
export { signedImageUrl, signedSrcSet } from './signed-image-url.js';

/** The client, reading upload paths from disk. */
export class VellumClient<S extends SchemaMap = UntypedSchemas> extends BrowserClient<S> {
  constructor(opts: ClientOptions) {
    super({ openFile: fileUploadSource, ...opts });
  }
}

/** `createClient` of the main entry, reading upload paths from disk. */
export function createClient<S extends SchemaMap = UntypedSchemas>(opts: ClientOptions): VellumClient<S> {
  return new VellumClient<S>(opts);
}

/** `multipartUploadBody` with file paths too. */
export async function multipartUploadBody(
  input: string | Blob | UploadSource,
  opts: UploadMediaOptions = {},
): Promise<MultipartUploadBody> {
  return bodyOf(typeof input === 'string' ? await fileUploadSource(input) : input, opts);
}
