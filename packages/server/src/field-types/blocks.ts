import { randomBytes } from 'node:crypto';
import type { BlockDef, FieldDef } from '../config/types.js';
import type { AnyFieldDef, FieldTypeSpec } from './field-type-spec.js';
import { fail, isPlainObject, structured, studio } from './common.js';

const BLOCK_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;
/** A block's `_key`: stable across saves, unique in its list (docs/api.md, "Blocks"). */
const KEY = /^[A-Za-z0-9_-]{1,64}$/;

const blocksOf = (f: AnyFieldDef): BlockDef[] => (Array.isArray(f.of) ? f.of : []);
const newKey = () => randomBytes(9).toString('base64url');

/** The fields a dotted path may name below the field: those of every block, the first block's where names repeat. */
function childFields(f: AnyFieldDef): FieldDef[] {
  const byName = new Map<string, FieldDef>();
  for (const block of blocksOf(f)) for (const field of block.fields) if (!byName.has(field.name)) byName.set(field.name, field);
  return [...byName.values()];
}

/**
 * A page builder's list (Strapi's dynamic zones, Sanity's arrays of object types): each item is
 * `{_type, _key, ...fields}`, `_type` one of the block names, its fields those of that block.
 */
export const blocks: FieldTypeSpec = structured({
  options: ['of', 'minItems', 'maxItems'],
  checkOptions: (r, path, f, ctx) => {
    if (!Array.isArray(f.of) || f.of.length === 0) {
      r.problem(`${path}.of`, 'expected a non-empty array of block types ({name, title?, fields})');
      f.of = [];
      return;
    }
    const seen = new Set<string>();
    f.of = f.of.map((raw, i) => {
      const at = `${path}.of[${i}]`;
      const b = r.object(at, raw, ['name', 'title', 'fields']);
      const name = typeof b.name === 'string' ? b.name : '';
      if (!BLOCK_NAME.test(name)) r.problem(`${at}.name`, `expected a block name matching ${BLOCK_NAME} (got ${JSON.stringify(b.name)})`);
      else if (seen.has(name)) r.problem(`${at}.name`, `duplicate block name "${name}"`);
      seen.add(name);
      const title = r.string(`${at}.title`, b.title);
      return { name, ...(title === undefined ? {} : { title }), fields: ctx.fields(`${at}.fields`, b.fields) };
    });
  },
  validate: (field, value, path, ctx) => {
    if (!Array.isArray(value)) return fail(ctx, path, 'must be an array');
    if (field.minItems !== undefined && value.length < field.minItems) return fail(ctx, path, `must have at least ${field.minItems} items`);
    if (field.maxItems !== undefined && value.length > field.maxItems) return fail(ctx, path, `must have at most ${field.maxItems} items`);
    const types = new Map(blocksOf(field).map((b) => [b.name, b]));
    const keys = new Map<string, number>();
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const at = `${path}.${i}`;
      if (!isPlainObject(item)) return fail(ctx, at, 'must be an object with a _type');
      const { _type, _key, ...rest } = item;
      const block = typeof _type === 'string' ? types.get(_type) : undefined;
      if (!block) return fail(ctx, `${at}._type`, `must be one of ${[...types.keys()].join(', ')}`);
      const key = _key === undefined || _key === null ? newKey() : _key;
      if (typeof key !== 'string' || !KEY.test(key)) return fail(ctx, `${at}._key`, 'must be 1 to 64 of A-Z, a-z, 0-9, _ and -');
      const first = keys.get(key);
      if (first !== undefined) return fail(ctx, `${at}._key`, `is also the key of ${path}.${first}`);
      keys.set(key, i);
      out.push({ _type: block.name, _key: key, ...ctx.object(block.fields, rest, `${at}.`) });
    });
    return out;
  },
  childFields,
  resolve: (f, rest, ctx) => {
    if (rest.length === 0) return { path: [], type: 'blocks', array: false };
    if (rest.length === 1 && (rest[0] === '_type' || rest[0] === '_key'))
      return { path: [], element: [rest[0]], type: 'string', array: true };
    const below = ctx.fields(childFields(f), rest);
    if (!below || below.array || below.element || ctx.spec({ type: below.type }).structured) return undefined;
    return { path: [], element: below.path, type: below.type, array: true };
  },
  search: (f, v, out) => {
    if (!Array.isArray(v)) return;
    const types = new Map(blocksOf(f).map((b) => [b.name, b]));
    for (const item of v) {
      const block = isPlainObject(item) && typeof item._type === 'string' ? types.get(item._type) : undefined;
      for (const field of block?.fields ?? [])
        if ((item as Record<string, unknown>)[field.name] !== undefined) out.value(field, (item as Record<string, unknown>)[field.name]);
    }
  },
  jsonSchema: (f, ctx) => ({
    type: 'array',
    items: {
      oneOf: blocksOf(f).map((b) => {
        const own = ctx.object(b.fields);
        return {
          type: 'object',
          ...(b.title ? { title: b.title } : {}),
          properties: { _type: { const: b.name }, _key: { type: 'string' }, ...(own.properties as object) },
          required: ['_type', '_key', ...((own.required as string[] | undefined) ?? [])],
        };
      }),
      discriminator: { propertyName: '_type' },
    },
  }),
  mapChildren: (f, map) => ({ ...f, of: blocksOf(f).map((b) => ({ ...b, fields: b.fields.map((c) => map(c) as FieldDef) })) }),
  studio: studio('blocks'),
});
