import type { LocalesConfig } from '../../config/locales-section.js';
import type { Services } from '../services.js';
import type { CompiledSchema } from '../schemas/schema-registry.js';
import type { LocaleValidation } from '../documents/validate-document.js';
import { isAllLocales, parseLocale, type LocaleRequest } from './locale-request.js';
import { fromWriterView, localePrefix, serveLocale, writerView } from './localized-data.js';
import { mergePatch } from '../shared/merge-patch.js';

/** A request's locale with the configuration it is read against; undefined where no locales are configured. */
export interface DocumentLocale {
  request: LocaleRequest;
  locales: LocalesConfig;
}

/** `locale=*` against a configuration: what events and exports carry. */
export const EVERY_LOCALE = (locales: LocalesConfig): DocumentLocale => ({ request: { all: true }, locales });

/** The `locale` of a document request (400 on an unknown one, docs/localization.md, "Reads"). */
export function documentLocale(svc: Services, raw: string | undefined): DocumentLocale | undefined {
  const request = parseLocale(svc.config.locales, raw);
  return request && svc.config.locales ? { request, locales: svc.config.locales } : undefined;
}

/** Serves a document (an API view of stored data) in the request's locale, in place; returns it. */
export function localized<T extends Record<string, unknown>>(svc: Services, doc: T, locale: DocumentLocale | undefined): T {
  if (!locale) return doc;
  const schema = svc.schemas.get(doc._type as string);
  serveLocale(doc, schema ? schema.localized.map((f) => f.name) : [], locale.request, locale.locales);
  return doc;
}

/** A document as an answer that names no locale serves it: in the default locale where locales are configured. */
export function served<T extends Record<string, unknown>>(svc: Services, doc: T): T {
  return localized(svc, doc, documentLocale(svc, undefined));
}

/** Where a write's value errors point: `title` in the locale written, `title.de` in another (or under `*`). */
export function localeValidation(locale: DocumentLocale | undefined): LocaleValidation | undefined {
  if (!locale) return undefined;
  const { request, locales } = locale;
  return {
    defaultCode: locales.default,
    codes: locales.list.map((l) => l.code).filter((c) => c !== locales.default),
    pathFor: (field, code) => (!isAllLocales(request) && request.code === code ? field : `${field}.${code}`),
  };
}

/** The stored data a PUT's body makes: the written locale's values and the shared fields replaced, every other locale kept. */
export function replacedData(
  schema: CompiledSchema,
  locale: DocumentLocale,
  current: Record<string, unknown>,
  body: Record<string, unknown>,
): Record<string, unknown> {
  return fromWriterView(body, current, schema.localizedNames, locale.request, locale.locales);
}

/** The stored data a PATCH makes: JSON Merge Patch over what the writer sees in its locale (`null` removes that locale's value only). */
export function patchedData(
  schema: CompiledSchema,
  locale: DocumentLocale,
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const view = writerView(current, schema.localizedNames, locale.request, locale.locales);
  return fromWriterView(mergePatch(view, patch) as Record<string, unknown>, current, schema.localizedNames, locale.request, locale.locales);
}

/**
 * Where a localized field's values sit for a query in this locale, in chain order (the domain's
 * `FieldRef.chain`); undefined for the default locale, whose values sit where shared ones do, so
 * its queries are the queries of a field without locales (and use the same indexes). Under `*`,
 * queries read the default locale's values.
 */
export function queryChain(locale: DocumentLocale): string[][] | undefined {
  const { request, locales } = locale;
  if (isAllLocales(request) || (request.code === locales.default && request.chain.length === 1)) return undefined;
  return request.chain.map((code) => localePrefix(code, locales));
}

/** The locale whose marked words a search reads (search-text.ts); undefined for the default's plain text (and under `*`). */
export function searchLocale(locale: DocumentLocale): string | undefined {
  const { request, locales } = locale;
  return isAllLocales(request) || request.code === locales.default ? undefined : request.code;
}
