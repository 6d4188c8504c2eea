import { fieldType, resolveBelow, type ResolvedBelow } from '../field-types/index.js';
import type { ConfigReader } from './reader.js';
import type { FieldDef } from './types.js';

/** `{…}` in a preview URL template (docs/preview.md): a field path, `_id`, `_type` or `token`. */
const PLACEHOLDER = /\{([^{}]*)\}/g;

/** Placeholders filled from the document or the issue itself rather than from a schema field. */
export const PREVIEW_SYSTEM_PLACEHOLDERS: ReadonlySet<string> = new Set(['_id', '_type', 'token']);

/** The names inside `{…}` of a template, in order, repeats included. */
export function previewPlaceholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/** Replaces each `{name}` of the template with `valueOf(name)`. */
export function replacePlaceholders(template: string, valueOf: (name: string) => string): string {
  return template.replace(PLACEHOLDER, (_, name: string) => valueOf(name));
}

/**
 * What a dotted field path (`slug.current`, `seo.title`) names in a schema's fields, or undefined
 * when nothing is there; what lies below a field is its type's to say (field-types/).
 */
export function resolvePreviewPath(fields: readonly FieldDef[], dotted: string): ResolvedBelow | undefined {
  const [name, ...rest] = dotted.split('.');
  const field = fields.find((f) => f.name === name);
  // A field whose type is unknown was reported already; nothing resolves below it.
  if (!field || !fieldType(field.type)) return undefined;
  const below = resolveBelow(field, rest);
  return below && { ...below, path: [name, ...below.path] };
}

/**
 * Checks a schema's `preview` option at start-up: `{url}`, an http(s) URL once its placeholders
 * are filled, each placeholder a field path of the schema or a system placeholder. One problem per
 * fault, reported with the rest of the config.
 */
export function checkPreviewOption(r: ConfigReader, path: string, raw: unknown, fields: readonly FieldDef[]): { url: string } | undefined {
  if (raw === undefined) return undefined;
  const preview = r.object(path, raw, ['url']);
  const url = r.string(`${path}.url`, preview.url);
  if (url === undefined) {
    if (preview.url === undefined)
      r.problem(`${path}.url`, 'expected a URL template such as "https://site.example/{slug.current}?preview={token}"');
    return undefined;
  }
  let ok = true;
  for (const name of new Set(previewPlaceholders(url))) {
    if (PREVIEW_SYSTEM_PLACEHOLDERS.has(name) || resolvePreviewPath(fields, name)) continue;
    r.problem(`${path}.url`, `unknown placeholder {${name}}: expected a field path of the schema, {_id}, {_type} or {token}`);
    ok = false;
  }
  if (!isHttpUrl(replacePlaceholders(url, () => 'x'))) {
    r.problem(`${path}.url`, 'expected an http or https URL');
    ok = false;
  }
  return ok ? { url } : undefined;
}

/**
 * The origin a template's pages are served from (`https://site.example`), for the studio's
 * frame-src; undefined when a placeholder is part of the origin itself, which no fixed source
 * can name.
 */
export function previewOrigin(template: string): string | undefined {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(template)?.[0];
  if (!origin || origin.includes('{') || !isHttpUrl(origin)) return undefined;
  return new URL(origin).origin;
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
