import type { FieldDef } from '../../config/types.js';
import type { ErrorDetail } from '../../errors.js';
import { specOf } from '../../field-types/index.js';
import { EMPTY, INVALID, type FoundMedia, type FoundReference, type ValueContext } from '../../field-types/field-type-spec.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import { LOCALES_KEY } from '../locales/localized-data.js';

export { ID_PATTERN } from '../../field-types/common.js';
export { DATETIME } from '../../field-types/date.js';
export type { FoundMedia, FoundReference } from '../../field-types/field-type-spec.js';

export interface ValidationResult {
  data: Record<string, unknown>;
  errors: ErrorDetail[];
  references: FoundReference[];
  media: FoundMedia[];
  /** Slug fields left empty, to be generated from their source by the write operation. */
  emptySlugs: EmptySlug[];
}

/**
 * A slug to generate: `field` at `at` in the data (`[]`, or a locale's place `['_locales', 'de']`,
 * docs/localization.md), made from its source at `sourceAt` (the same place for a localized
 * source, `[]` for a shared one).
 */
export interface EmptySlug {
  field: FieldDef;
  at: readonly string[];
  sourceAt: readonly string[];
  /** The content locale of the place, where locales are configured: the slug transliterates by its rules. */
  locale?: string;
}

/** The other locales' values to check beside the default's (docs/localization.md, "Writes"). */
export interface LocaleValidation {
  /** The default locale's code: the values at the top of the data are in it. */
  defaultCode: string;
  /** The configured locales but the default, in order. */
  codes: readonly string[];
  /** An error's path for a field's value in a locale, as the writer named it. */
  pathFor(field: string, code: string): string;
}

/**
 * Validates and normalises the non-system fields of a document body against its schema.
 * Unknown fields are errors; `null` means absent; defaults apply when `applyDefaults` is set
 * (creates). Error paths are dotted (`seo.title`, `tags.2`). Each value is checked by its
 * type's spec (field-types/).
 */
export function validateDocument(
  schema: CompiledSchema,
  input: Record<string, unknown>,
  applyDefaults: boolean,
  locales?: LocaleValidation,
): ValidationResult {
  const result: ValidationResult = { data: {}, errors: [], references: [], media: [], emptySlugs: [] };
  const ctx: ValueContext = {
    errors: result.errors,
    references: result.references,
    media: result.media,
    applyDefaults,
    locale: locales?.defaultCode,
    value: (field, value, path) => specOf(field).validate(field, value, path, ctx),
    object: (fields, nested, prefix) => validateObject(fields, nested, prefix, ctx, result, false),
  };
  result.data = validateObject(schema.fields, input, '', ctx, result, true);
  if (locales && schema.localized.length > 0) validateOtherLocales(schema, input, locales, ctx, result);
  return result;
}

/**
 * The values of localized fields in the locales other than the default (stored under
 * `_locales`, domain/locales/localized-data.ts): each checked by its type as the default's is,
 * never required (`required` is the default locale's). Values of a locale no longer configured,
 * or of a field no longer localized, are not carried on: the revisions keep them.
 */
function validateOtherLocales(
  schema: CompiledSchema,
  input: Record<string, unknown>,
  locales: LocaleValidation,
  ctx: ValueContext,
  result: ValidationResult,
): void {
  const maps = input[LOCALES_KEY] as Record<string, Record<string, unknown> | undefined> | undefined;
  if (typeof maps !== 'object' || maps === null) return;
  const out: Record<string, Record<string, unknown>> = {};
  for (const code of locales.codes) {
    const map = maps[code];
    if (typeof map !== 'object' || map === null) continue;
    ctx.locale = code;
    for (const field of schema.localized) {
      const value = map[field.name];
      const found = { references: ctx.references.length, media: ctx.media.length };
      const outcome = value === undefined || value === null ? EMPTY : ctx.value(field, value, locales.pathFor(field.name, code));
      placeEdges(ctx, found, locales.pathFor(field.name, code), `${field.name}[${code}]`);
      if (outcome !== EMPTY && outcome !== INVALID) (out[code] ??= {})[field.name] = outcome;
      else if (outcome === EMPTY && specOf(field).generatedWhenEmpty && field.source !== undefined) {
        // Made from the same locale's source where the locale has one; never required there.
        const sourceAt = schema.localizedNames.has(field.source) ? [LOCALES_KEY, code] : [];
        const source = sourceAt.length > 0 ? map[field.source] : input[field.source];
        if (typeof source === 'string' && source !== '') result.emptySlugs.push({ field, at: [LOCALES_KEY, code], sourceAt, locale: code });
      }
    }
  }
  ctx.locale = locales.defaultCode;
  if (Object.keys(out).length > 0) result.data[LOCALES_KEY] = out;
}

/**
 * The references and media found in one locale's value are kept as edges of the document
 * (docs/localization.md, "Storage") under `<field>[<code>]…`, whatever the request named them
 * (`author` with `?locale=de`, `author.de` in a `locale=*` body): the default locale's paths start
 * with a field name, which has no bracket, so one document never holds a path twice.
 */
function placeEdges(ctx: ValueContext, from: { references: number; media: number }, named: string, stored: string): void {
  const edgePath = (path: string) => stored + path.slice(named.length);
  for (const found of [ctx.references.slice(from.references), ctx.media.slice(from.media)])
    for (const f of found) f.edgePath = edgePath(f.path);
}

function validateObject(
  fields: readonly FieldDef[],
  input: Record<string, unknown>,
  prefix: string,
  ctx: ValueContext,
  result: ValidationResult,
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
    if ((value === undefined || value === null) && ctx.applyDefaults && field.default !== undefined) value = field.default;
    if (value === undefined || value === null) {
      if (specOf(field).generatedWhenEmpty && topLevel) result.emptySlugs.push({ field, at: [], sourceAt: [], locale: ctx.locale });
      else if (field.required) ctx.errors.push({ field: path, message: 'is required' });
      continue;
    }
    const outcome = ctx.value(field, value, path);
    if (outcome === EMPTY) {
      if (topLevel) result.emptySlugs.push({ field, at: [], sourceAt: [], locale: ctx.locale });
      else if (field.required) ctx.errors.push({ field: path, message: 'is required' });
    } else if (outcome !== INVALID) {
      out[field.name] = outcome;
    }
  }
  return out;
}
