import type { FieldTypeSpec } from './field-type-spec.js';
import { fail, isPlainObject, structured, studio } from './common.js';

export const geopoint: FieldTypeSpec = structured({
  validate: (_f, value, path, ctx) => {
    if (!isPlainObject(value) || Object.keys(value).some((k) => k !== 'lat' && k !== 'lng')) return fail(ctx, path, 'must be {lat, lng}');
    const { lat, lng } = value;
    if (typeof lat !== 'number' || lat < -90 || lat > 90) return fail(ctx, `${path}.lat`, 'must be a number from -90 to 90');
    if (typeof lng !== 'number' || lng < -180 || lng > 180) return fail(ctx, `${path}.lng`, 'must be a number from -180 to 180');
    return { lat, lng };
  },
  resolve: (_f, rest) => {
    if (rest.length === 0) return { path: [], type: 'geopoint', array: false };
    if (rest.length === 1 && (rest[0] === 'lat' || rest[0] === 'lng')) return { path: [rest[0]], type: 'number', array: false };
    return undefined;
  },
  jsonSchema: () => ({ type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } }, required: ['lat', 'lng'] }),
  studio: studio('geopoint'),
});
