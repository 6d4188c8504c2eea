import type { FieldDef } from '../../config/types.js';
import type { ErrorDetail } from '../../errors.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import { slugify } from './slugify.js';
import { sanitizeRichtext } from './sanitize-richtext.js';

export const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
const URL_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/** A reference found while validating, checked against the database afterwards in one query. */
export interface FoundReference {
  path: string;
  id: string;
  to: readonly string[];
}

/** A media id found in an image or file field, checked for existence and `accept` afterwards. */
export interface FoundMedia {
  path: string;
  id: string;
  /** MIME prefixes or types the field takes; images default to `image/`. */
  accept: readonly string[];
}

export interface ValidationResult {
  data: Record<string, unknown>;
  errors: ErrorDetail[];
  references: FoundReference[];
  media: FoundMedia[];
  /** Slug fields left empty, to be generated from their source by the write operation. */
  emptySlugs: FieldDef[];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const length = (s: string) => [...s].length;

/**
 * Validates and normalises the non-system fields of a document body against its schema.
 * Unknown fields are errors; `null` means absent; defaults apply when `applyDefaults` is set
 * (creates). Error paths are dotted (`seo.title`, `tags.2`).
 */
export function validateDocument(schema: CompiledSchema, input: Record<string, unknown>, applyDefaults: boolean): ValidationResult {
  const ctx: ValidationResult = { data: {}, errors: [], references: [], media: [], emptySlugs: [] };
  ctx.data = validateObject(schema.fields, input, '', ctx, applyDefaults, true);
  return ctx;
}

function validateObject(
  fields: readonly FieldDef[],
  input: Record<string, unknown>,
  prefix: string,
  ctx: ValidationResult,
  applyDefaults: boolean,
  topLevel: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(input)) {
    // System fields (`_id`, `_rev`, …) in a body are ignored at the top level; they are handled by the operation.
    if (topLevel && key.startsWith('_')) continue;
    if (!known.has(key)) ctx.errors.push({ field: prefix + key, message: 'unknown field' });
  }
  for (const field of fields) {
    const path = prefix + field.name;
    let value = Object.prototype.hasOwnProperty.call(input, field.name) ? input[field.name] : undefined;
    if ((value === undefined || value === null) && applyDefaults && field.default !== undefined) value = field.default;
    if (value === undefined || value === null) {
      if (field.type === 'slug' && topLevel) ctx.emptySlugs.push(field);
      else if (field.required) ctx.errors.push({ field: path, message: 'is required' });
      continue;
    }
    const result = validateValue(field, value, path, ctx, applyDefaults);
    if (result === EMPTY_SLUG) {
      if (topLevel) ctx.emptySlugs.push(field);
      else if (field.required) ctx.errors.push({ field: path, message: 'is required' });
    } else if (result !== INVALID) {
      out[field.name] = result;
    }
  }
  return out;
}

const INVALID = Symbol('invalid');
const EMPTY_SLUG = Symbol('empty-slug');

function fail(ctx: ValidationResult, field: string, message: string): typeof INVALID {
  ctx.errors.push({ field, message });
  return INVALID;
}

function validateValue(field: FieldDef, value: unknown, path: string, ctx: ValidationResult, applyDefaults: boolean): unknown {
  switch (field.type) {
    case 'string':
    case 'text':
    case 'markdown':
    case 'richtext': {
      if (typeof value !== 'string') return fail(ctx, path, 'must be a string');
      const v = field.type === 'richtext' ? sanitizeRichtext(value) : value;
      if (field.minLength !== undefined && length(v) < field.minLength)
        return fail(ctx, path, `must be at least ${field.minLength} characters`);
      if (field.maxLength !== undefined && length(v) > field.maxLength)
        return fail(ctx, path, `must be at most ${field.maxLength} characters`);
      if (field.pattern !== undefined && !compiledPattern(field.pattern).test(v)) return fail(ctx, path, `must match ${field.pattern}`);
      return v;
    }
    case 'email':
      if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value)) return fail(ctx, path, 'must be an email address');
      return value;
    case 'url': {
      if (typeof value !== 'string') return fail(ctx, path, 'must be a URL');
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        return fail(ctx, path, 'must be an absolute URL');
      }
      if (!URL_SCHEMES.has(url.protocol)) return fail(ctx, path, 'must be an http(s), mailto or tel URL');
      return value;
    }
    case 'slug': {
      const raw = typeof value === 'string' ? value : isPlainObject(value) && typeof value.current === 'string' ? value.current : undefined;
      if (raw === undefined || (isPlainObject(value) && Object.keys(value).some((k) => k !== 'current'))) {
        return fail(ctx, path, 'must be a string or {current: string}');
      }
      const current = slugify(raw, field.maxLength);
      return current === '' ? EMPTY_SLUG : { current };
    }
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail(ctx, path, 'must be a number');
      if (field.type === 'integer' && !Number.isInteger(value)) return fail(ctx, path, 'must be an integer');
      if (field.min !== undefined && value < field.min) return fail(ctx, path, `must be ≥ ${field.min}`);
      if (field.max !== undefined && value > field.max) return fail(ctx, path, `must be ≤ ${field.max}`);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') return fail(ctx, path, 'must be true or false');
      return value;
    case 'date': {
      const m = typeof value === 'string' ? DATE.exec(value) : null;
      if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) return fail(ctx, path, 'must be a date (YYYY-MM-DD)');
      return value;
    }
    case 'datetime': {
      if (typeof value !== 'string' || !DATETIME.test(value) || Number.isNaN(Date.parse(value)))
        return fail(ctx, path, 'must be an ISO 8601 date-time with a time zone');
      // Stored as UTC with milliseconds so stored values compare and sort as text.
      return new Date(value).toISOString();
    }
    case 'select':
      if (typeof value !== 'string' || !(field.options ?? []).includes(value))
        return fail(ctx, path, `must be one of ${(field.options ?? []).join(', ')}`);
      return value;
    case 'reference':
      if (typeof value !== 'string' || !ID_PATTERN.test(value)) return fail(ctx, path, 'must be a document id');
      ctx.references.push({ path, id: value, to: Array.isArray(field.to) ? field.to : [field.to as string] });
      return value;
    case 'image':
    case 'file':
      if (typeof value !== 'string' || !ID_PATTERN.test(value)) return fail(ctx, path, 'must be a media id');
      ctx.media.push({ path, id: value, accept: field.accept ?? (field.type === 'image' ? ['image/'] : []) });
      return value;
    case 'array': {
      if (!Array.isArray(value)) return fail(ctx, path, 'must be an array');
      if (field.minItems !== undefined && value.length < field.minItems)
        return fail(ctx, path, `must have at least ${field.minItems} items`);
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return fail(ctx, path, `must have at most ${field.maxItems} items`);
      const of = { ...(field.of as FieldDef), name: field.name };
      const out: unknown[] = [];
      value.forEach((item, i) => {
        if (item === null || item === undefined) {
          fail(ctx, `${path}.${i}`, 'must not be null');
          return;
        }
        const r = validateValue(of, item, `${path}.${i}`, ctx, applyDefaults);
        if (r === EMPTY_SLUG) fail(ctx, `${path}.${i}`, 'must not be empty');
        else if (r !== INVALID) out.push(r);
      });
      return out;
    }
    case 'object':
      if (!isPlainObject(value)) return fail(ctx, path, 'must be an object');
      return validateObject(field.fields ?? [], value, `${path}.`, ctx, applyDefaults, false);
    case 'geopoint': {
      if (!isPlainObject(value) || Object.keys(value).some((k) => k !== 'lat' && k !== 'lng')) return fail(ctx, path, 'must be {lat, lng}');
      const { lat, lng } = value;
      if (typeof lat !== 'number' || lat < -90 || lat > 90) return fail(ctx, `${path}.lat`, 'must be a number from -90 to 90');
      if (typeof lng !== 'number' || lng < -180 || lng > 180) return fail(ctx, `${path}.lng`, 'must be a number from -180 to 180');
      return { lat, lng };
    }
    case 'json':
      return value;
  }
}

const patterns = new Map<string, RegExp>();

/** Schema patterns are compiled once (they were checked at start-up). */
function compiledPattern(source: string): RegExp {
  let re = patterns.get(source);
  if (!re) patterns.set(source, (re = new RegExp(source, 'u')));
  return re;
}

function isRealDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
