import type { FieldTypeSpec, ValueContext, AnyFieldDef } from './field-type-spec.js';
import { fail, stringScalar, studio } from './common.js';
import { richtextToText, sanitizeRichtext } from './sanitize-richtext.js';

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const URL_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const length = (s: string) => [...s].length;

/** Text with the length and pattern options; `normalise` runs first (the richtext sanitiser). */
function checkedText(normalise: (s: string) => string) {
  return (field: AnyFieldDef, value: unknown, path: string, ctx: ValueContext) => {
    if (typeof value !== 'string') return fail(ctx, path, 'must be a string');
    const v = normalise(value);
    if (field.minLength !== undefined && length(v) < field.minLength)
      return fail(ctx, path, `must be at least ${field.minLength} characters`);
    if (field.maxLength !== undefined && length(v) > field.maxLength)
      return fail(ctx, path, `must be at most ${field.maxLength} characters`);
    if (field.pattern !== undefined && !compiledPattern(field.pattern).test(v)) return fail(ctx, path, `must match ${field.pattern}`);
    return v;
  };
}

const same = (s: string) => s;
const TEXT_OPTIONS = ['minLength', 'maxLength', 'pattern'];

export const string: FieldTypeSpec = stringScalar({
  options: TEXT_OPTIONS,
  validate: checkedText(same),
  slugSource: true,
  naturalOrder: true,
  search: (_f, v, out) => {
    if (typeof v === 'string') out.text(v);
  },
  studio: studio('string', { sortable: true, column: true }),
});

export const text: FieldTypeSpec = { ...string, studio: studio('text') };

export const markdown: FieldTypeSpec = { ...string, indexable: false, studio: studio('markdown') };

export const richtext: FieldTypeSpec = stringScalar({
  options: TEXT_OPTIONS,
  validate: checkedText(sanitizeRichtext),
  indexable: false,
  search: (_f, v, out) => {
    if (typeof v === 'string') out.text(richtextToText(v));
  },
  studio: studio('richtext'),
});

export const email: FieldTypeSpec = stringScalar({
  validate: (_f, value, path, ctx) =>
    typeof value !== 'string' || value.length > 254 || !EMAIL.test(value) ? fail(ctx, path, 'must be an email address') : value,
  slugSource: true,
  naturalOrder: true,
  studio: studio('string', { sortable: true, input: 'email' }),
});

export const url: FieldTypeSpec = stringScalar({
  validate: (_f, value, path, ctx) => {
    if (typeof value !== 'string') return fail(ctx, path, 'must be a URL');
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      return fail(ctx, path, 'must be an absolute URL');
    }
    if (!URL_SCHEMES.has(parsed.protocol)) return fail(ctx, path, 'must be an http(s), mailto or tel URL');
    return value;
  },
  slugSource: true,
  naturalOrder: true,
  studio: studio('string', { sortable: true, input: 'url' }),
});

export const select: FieldTypeSpec = stringScalar({
  options: ['options'],
  checkOptions: (r, path, f) => {
    if (!Array.isArray(f.options) || f.options.length === 0 || !f.options.every((o) => typeof o === 'string')) {
      r.problem(`${path}.options`, 'expected a non-empty array of strings');
    }
  },
  validate: (field, value, path, ctx) =>
    typeof value !== 'string' || !(field.options ?? []).includes(value)
      ? fail(ctx, path, `must be one of ${(field.options ?? []).join(', ')}`)
      : value,
  slugSource: true,
  naturalOrder: true,
  alwaysIndexed: true,
  jsonSchema: (f) => (f.options && f.options.length > 0 ? { type: 'string', enum: [...f.options] } : { type: 'string' }),
  studio: studio('select', { sortable: true, column: true, listFilter: 'options' }),
});

const patterns = new Map<string, RegExp>();

/** Schema patterns are compiled once (they were checked at start-up). */
function compiledPattern(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) patterns.set(source, (re = new RegExp(source, 'u')));
  return re;
}
