/**
 * Why media handling failed. Every failure media/ reports is a MediaError with one of these
 * reasons; the domain turns each into one AppError in one place (domain/media/media-failure.ts).
 */
export type MediaErrorReason =
  /** An upload past `media.maxFileSize`. */
  | 'file-too-large'
  /** The upload stream broke off, or the multipart body around it is malformed. */
  | 'malformed-upload'
  /** More pixels than `media.maxPixels`, found from the header before any decode. */
  | 'image-too-large'
  /** A file that claims to be an image but does not decode, or whose summary cannot be computed. */
  | 'unreadable-image'
  /** An image format no decoder here may open (SVG, PDF, …). */
  | 'unsupported-image'
  /** A variant that failed twice. */
  | 'variant-failed'
  /** A byte range outside the stored object. */
  | 'unsatisfiable-range'
  /** A storage key the service could not have generated (separators, `..`, …). */
  | 'unsafe-key'
  /** The file store's configuration cannot work (S3 credentials half given). */
  | 'misconfigured'
  /** The file store answered what it should not (S3 and look-alikes). */
  | 'storage-failed';

/** What a failure knows beyond its reason. */
export interface MediaErrorFacts {
  /** `image-too-large`: the image's size and the limit. */
  width?: number;
  height?: number;
  maxPixels?: number;
  /** `variant-failed`: the variant's name. */
  variant?: string;
  /** `file-too-large`: the limit in bytes. */
  maxBytes?: number;
  /** `unsatisfiable-range`: the object's size in bytes, when known. */
  size?: number;
}

/** The one error type media/ throws (programming-error guards on arguments aside). */
export class MediaError extends Error {
  readonly width?: number;
  readonly height?: number;
  readonly maxPixels?: number;
  readonly variant?: string;
  readonly maxBytes?: number;
  readonly size?: number;

  constructor(
    readonly reason: MediaErrorReason,
    message: string,
    facts: MediaErrorFacts = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'MediaError';
    Object.assign(this, facts);
  }
}

export function isMediaError(err: unknown): err is MediaError {
  return err instanceof MediaError;
}
