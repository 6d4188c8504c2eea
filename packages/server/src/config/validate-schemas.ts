import { FIELD_TYPE_NAMES, fieldType } from '../field-types/index.js';
import type { FieldDef, SchemaDef } from './types.js';
import type { ConfigReader } from './reader.js';
import { checkFormLayout } from './form-layout.js';
import { checkPreviewOption } from './preview-url-template.js';

// Permission strings are `<resource>:<action>`; a schema may not take a fixed resource's name.
const RESERVED = new Set(['content', 'media', 'users', 'settings', 'studio', 'tokens', 'webhooks']);
const SCHEMA_NAME = /^[a-z][a-zA-Z0-9_]*$/;
// Field names never start with `_`: that prefix belongs to the system fields.
const FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;
/** Validates `schemas` from the config; problems go to the reader, the result is the typed list. */
export function validateSchemas(r: ConfigReader, raw: unknown, hasLocales = false): SchemaDef[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    r.problem('schemas', 'expected an array of schema definitions');
    return [];
  }
  const names = new Set<string>();
  for (const s of raw) if (s && typeof s === 'object' && typeof (s as SchemaDef).name === 'string') names.add((s as SchemaDef).name);

  const seen = new Set<string>();
  return raw.map((value, i) => {
    const path = `schemas[${i}]`;
    const s = r.object(path, value, ['name', 'title', 'type', 'public', 'fields', 'description', 'preview', 'groups']);
    const name = r.string(`${path}.name`, s.name) ?? '';
    if (!SCHEMA_NAME.test(name)) r.problem(`${path}.name`, `expected a name matching ${SCHEMA_NAME} (got ${JSON.stringify(s.name)})`);
    if (RESERVED.has(name)) r.problem(`${path}.name`, `"${name}" is reserved (it names a permission resource)`);
    if (seen.has(name)) r.problem(`${path}.name`, `duplicate schema name "${name}"`);
    seen.add(name);
    const type = s.type ?? 'document';
    if (type !== 'document' && type !== 'singleton') r.problem(`${path}.type`, 'expected "document" or "singleton"');
    const fields = validateFields(r, `${path}.fields`, s.fields, names, true);
    checkLocalized(r, `${path}.fields`, fields, hasLocales);
    const preview = checkPreviewOption(r, `${path}.preview`, s.preview, fields);
    const groups = checkFormLayout(r, path, s.groups, fields);
    return {
      name,
      title: r.string(`${path}.title`, s.title) ?? name,
      type: type as SchemaDef['type'],
      public: r.bool(`${path}.public`, s.public, true),
      fields,
      ...(preview ? { preview } : {}),
      ...(groups ? { groups } : {}),
    };
  });
}

function validateFields(r: ConfigReader, path: string, raw: unknown, schemas: Set<string>, topLevel: boolean): FieldDef[] {
  if (!Array.isArray(raw)) {
    r.problem(path, 'expected an array of fields');
    return [];
  }
  const seen = new Set<string>();
  const fields = raw.map((value, i) => {
    const fpath = `${path}[${i}]`;
    // A copy: the caller's objects are never changed (and may be frozen).
    const f = { ...r.object(fpath, value) } as unknown as FieldDef;
    if (typeof f.name !== 'string' || !FIELD_NAME.test(f.name)) {
      r.problem(`${fpath}.name`, `expected a field name matching ${FIELD_NAME} (got ${JSON.stringify(f.name)})`);
    } else if (seen.has(f.name)) {
      r.problem(`${fpath}.name`, `duplicate field name "${f.name}"`);
    }
    seen.add(f.name);
    validateField(r, fpath, f, schemas, topLevel);
    return f;
  });
  for (const [i, f] of fields.entries()) {
    if (fieldType(f.type)?.options.includes('source') && f.source !== undefined) {
      const src = fields.find((o) => o.name === f.source);
      if (!src || !fieldType(src.type)?.slugSource) {
        r.problem(`${path}[${i}].source`, `expected the name of a string field beside it (got ${JSON.stringify(f.source)})`);
      }
    }
  }
  return fields;
}

function validateField(r: ConfigReader, path: string, f: FieldDef, schemas: Set<string>, topLevel: boolean): void {
  const spec = fieldType(f.type);
  if (!spec) {
    r.problem(`${path}.type`, `unknown field type ${JSON.stringify(f.type)} (expected one of ${FIELD_TYPE_NAMES.join(', ')})`);
    return;
  }
  for (const key of ['minLength', 'maxLength', 'minItems', 'maxItems'] as const) r.int(`${path}.${key}`, f[key], { min: 0 });
  for (const key of ['min', 'max'] as const) {
    if (f[key] !== undefined && (typeof f[key] !== 'number' || !Number.isFinite(f[key]))) r.problem(`${path}.${key}`, 'expected a number');
  }
  for (const key of ['required', 'unique', 'indexed'] as const) r.bool(`${path}.${key}`, f[key], false);
  if (f.pattern !== undefined) {
    try {
      new RegExp(String(f.pattern), 'u');
    } catch {
      r.problem(`${path}.pattern`, 'expected a valid regular expression');
    }
  }
  if ((f.unique || f.indexed) && (!topLevel || !spec.indexable)) {
    r.problem(`${path}.${f.unique ? 'unique' : 'indexed'}`, 'only top-level scalar fields can be unique or indexed');
  }
  spec.checkOptions?.(r, path, f, {
    schemas,
    field: (p, nested) => {
      validateField(r, p, nested, schemas, false);
      return nested;
    },
    fields: (p, raw) => validateFields(r, p, raw, schemas, false),
  });
}

/**
 * `localized: true` (docs/localization.md): top-level fields only, since a locale picks a whole
 * field's value, and only where `locales` are configured. A slug follows its source: a shared slug
 * of a localized title would have no one value to come from.
 */
function checkLocalized(r: ConfigReader, path: string, fields: readonly FieldDef[], hasLocales: boolean): void {
  fields.forEach((f, i) => {
    r.bool(`${path}[${i}].localized`, f.localized, false);
    if (f.localized === true && !hasLocales) r.problem(`${path}[${i}].localized`, 'needs locales in the config (docs/localization.md)');
    if (f.localized !== true && f.source !== undefined && fieldType(f.type)?.options.includes('source')) {
      if (fields.find((o) => o.name === f.source)?.localized === true) {
        r.problem(`${path}[${i}].localized`, `must be true: its source ${f.source} is localized`);
      }
    }
    nestedLocalized(r, `${path}[${i}]`, f);
  });
}

function nestedLocalized(r: ConfigReader, path: string, f: FieldDef): void {
  const inner: Array<[string, FieldDef]> = [];
  (f.fields ?? []).forEach((n, i) => inner.push([`${path}.fields[${i}]`, n]));
  if (Array.isArray(f.of)) f.of.forEach((b, i) => (b.fields ?? []).forEach((n, j) => inner.push([`${path}.of[${i}].fields[${j}]`, n])));
  else if (f.of && typeof f.of === 'object') inner.push([`${path}.of`, f.of as FieldDef]);
  for (const [p, n] of inner) {
    if (!n || typeof n !== 'object') continue;
    if (n.localized !== undefined)
      r.problem(`${p}.localized`, 'only top-level fields can be localized: the whole field has one value per locale');
    nestedLocalized(r, p, n);
  }
}
