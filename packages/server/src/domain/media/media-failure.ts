import { errors } from '../../errors.js';
import { MediaError } from '../../media/media-error.js';

/**
 * The answer to a failure of media/ (docs/api.md, "Media"): the one place media errors become
 * AppErrors. A fault of the server or its storage (`unsafe-key` for a key the service made,
 * `misconfigured`, `storage-failed`) stays as it is: the error handler logs it and answers 500.
 * Anything that is not a MediaError passes unchanged.
 */
export function mediaFailure(err: unknown): unknown {
  if (!(err instanceof MediaError)) return err;
  switch (err.reason) {
    case 'file-too-large':
      return errors.payloadTooLarge(`The file is larger than the limit of ${err.maxBytes} bytes`);
    case 'malformed-upload':
      return errors.invalidInput('The upload ended early or is not well-formed multipart');
    case 'image-too-large':
      return errors.validation(
        [{ field: 'file', message: `the image has ${err.width}×${err.height} pixels; the limit is ${err.maxPixels}` }],
        'The image is too large to process',
      );
    case 'unreadable-image':
    case 'unsupported-image':
      return errors.validation([{ field: 'file', message: 'could not be read as an image' }], 'The image could not be processed');
    case 'variant-failed':
      return errors.validation(
        [{ field: 'file', message: `variant ${err.variant} could not be generated` }],
        'The image could not be processed',
      );
    case 'unsatisfiable-range':
      return errors.rangeNotSatisfiable(err.size ?? 0);
    case 'unsafe-key':
    case 'misconfigured':
    case 'storage-failed':
      return err;
  }
}

/** `promise`, with a media failure turned into its AppError. */
export function mapMediaFailure<T>(promise: Promise<T>): Promise<T> {
  return promise.catch((err: unknown) => {
    throw mediaFailure(err);
  });
}
