type Operation = { parameters?: Array<Record<string, unknown>> };

const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

/**
 * The query of a document list (docs/api.md, "List queries"). The list route declares no
 * querystring schema: `filter[field][op]` keys are open-ended, so `list-params.ts` reads the query
 * itself; these are the parameters it accepts, for the document only.
 */
export const LIST_PARAMETERS = [
  {
    name: 'filter',
    in: 'query',
    required: false,
    style: 'deepObject',
    explode: true,
    description:
      '`filter[field]=value`, or `filter[field][op]=value` with op `eq ne gt gte lt lte in nin contains startsWith exists`; ' +
      'dotted paths for nested fields; all must hold. `filter[_draft][exists]=true|false` with `perspective=drafts`: ' +
      'documents with (or without) a pending draft (docs/drafts.md, "Reading")',
    schema: { type: 'object', additionalProperties: true },
  },
  query('orderBy', 'A scalar or system field (default `_createdAt`)'),
  query('order', 'Ascending or descending (default `desc`)', { type: 'string', enum: ['asc', 'desc'] }),
  query(
    'natural',
    '`true`: order a text field naturally, digit runs by their value ("Chapter 2" before "Chapter 10"), ignoring case and accents (docs/api.md, "Natural order")',
    { type: 'boolean', default: false },
  ),
  query('limit', 'Page size (default 20, at most 100; `0` answers `meta` only)', { type: 'integer', minimum: 0, maximum: 100 }),
  query('offset', 'Documents to skip', { type: 'integer', minimum: 0 }),
  query('after', 'The `meta.nextCursor` of the previous page: pages by position instead of `offset` (docs/api.md, "Cursor pagination")'),
  query('search', 'Full-text search: every word must match, the last as a prefix'),
  query('fields', 'Comma-separated top-level fields to return'),
  query('expand', 'Comma-separated reference paths to expand (`author.company`)'),
  query(
    'perspective',
    "`published`: published main versions only; `drafts`: each document's pending draft where it has one (read permission). " +
      'Filters, order and search apply to what is served (docs/drafts.md, "Reading")',
    { type: 'string', enum: ['published', 'drafts'] },
  ),
  query(
    'locale',
    'A configured locale code (`de-CH`): localized fields are served in it, each through its fallback chain, and filters, order and ' +
      'search use the values served; `*`: every locale, as `{<code>: value}` (docs/localization.md). Absent: the default locale',
  ),
  query(
    'untranslated',
    'A configured locale other than the default: only documents with a localized field that has a value in the default locale ' +
      'and none of its own in that locale (docs/localization.md, "Translation status")',
  ),
];

/** Gives the list operations of `/documents/{type}` and `/collections/{type}` their query. */
export function addListParameters(doc: Record<string, unknown>, basePath: string): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const mode of ['documents', 'collections']) {
    const op = paths[`${basePath}/${mode}/{type}`]?.get;
    if (op) op.parameters = [...(op.parameters ?? []), ...LIST_PARAMETERS];
  }
}

/**
 * `POST /media` reads its multipart body itself (docs/api.md, "Media"): the body it takes, so a
 * generated client can send one (`file` is binary; a generator maps it to `Blob`).
 */
export function addUploadBody(doc: Record<string, unknown>, basePath: string): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation & { requestBody?: unknown }>>;
  const op = paths[`${basePath}/media`]?.post;
  if (!op) return;
  op.requestBody = {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          properties: {
            file: { type: 'string', format: 'binary', description: 'The file: exactly one; its type is sniffed from the bytes' },
            alt: { type: 'string', maxLength: 1000 },
            title: { type: 'string', maxLength: 1000 },
            _id: { type: 'string', description: "Create with this id (an import keeping its documents' references)" },
          },
          required: ['file'],
        },
      },
    },
  };
}

const LOCALE_PARAMETERS = new Set(['locale', 'untranslated']);

/**
 * `locale` on the document operations names the configured locales and `*`, a list's
 * `untranslated` the locales but the default (docs/localization.md); without locales configured
 * they take no value (every one is refused), so they are left out.
 */
export function addLocaleParameter(doc: Record<string, unknown>, codes: readonly string[] | undefined): void {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (!Array.isArray(op?.parameters)) continue;
      // Without locales neither takes a value; with the default locale alone `untranslated` takes none.
      const unused = !codes ? LOCALE_PARAMETERS : codes.length < 2 ? new Set(['untranslated']) : undefined;
      if (unused) op.parameters = op.parameters.filter((p) => !(unused.has(p.name as string) && p.in === 'query'));
      if (codes)
        for (const p of op.parameters) {
          if (p.in !== 'query') continue;
          if (p.name === 'locale') p.schema = { type: 'string', enum: [...codes, '*'] };
          // The first code is the default locale, which has nothing to translate.
          if (p.name === 'untranslated') p.schema = { type: 'string', enum: codes.slice(1) };
        }
    }
  }
}
