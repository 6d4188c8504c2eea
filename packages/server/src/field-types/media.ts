import type { AnyFieldDef, FieldTypeSpec, ValueContext } from './field-type-spec.js';
import { fail, ID_PATTERN, stringScalar, studio } from './common.js';

/** What an image field takes when it names no `accept`. */
const IMAGES: readonly string[] = ['image/'];

function mediaId(defaultAccept: readonly string[]) {
  return (field: AnyFieldDef, value: unknown, path: string, ctx: ValueContext) => {
    if (typeof value !== 'string' || !ID_PATTERN.test(value)) return fail(ctx, path, 'must be a media id');
    ctx.media.push({ path, id: value, accept: field.accept ?? defaultAccept });
    return value;
  };
}

const file_: FieldTypeSpec = stringScalar({
  options: ['accept'],
  checkOptions: (r, path, f) => {
    if (f.accept !== undefined && (!Array.isArray(f.accept) || !f.accept.every((a) => typeof a === 'string'))) {
      r.problem(`${path}.accept`, 'expected an array of MIME type prefixes');
    }
  },
  validate: mediaId([]),
  expands: 'media',
  // A media id; `expand` replaces it with the media record. The keyword says so to `vellum types`
  // (and the typed client), as `x-vellum-reference` does for references.
  jsonSchema: () => ({ type: 'string', [MEDIA_KEYWORD]: true, description: 'Id of a media file: `expand` replaces it with its record' }),
  studio: studio('media'),
});

const MEDIA_KEYWORD = 'x-vellum-media';

export { file_ as file };

/** A media id whose `accept` defaults to images. */
export const image: FieldTypeSpec = { ...file_, validate: mediaId(IMAGES), studio: { ...file_.studio, accept: IMAGES } };
