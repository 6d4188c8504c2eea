import { Type } from '@sinclair/typebox';

export const TypeParams = Type.Object({ type: Type.String({ maxLength: 64 }) });
export const DocParams = Type.Object({ type: Type.String({ maxLength: 64 }), id: Type.String({ maxLength: 256 }) });
export const RevParams = Type.Object({
  type: Type.String({ maxLength: 64 }),
  id: Type.String({ maxLength: 256 }),
  rev: Type.String({ pattern: '^[0-9]{1,9}$' }),
});
/** Which versions a read serves (docs/drafts.md, "Reading"); the description is the OpenAPI parameter's. */
export const Perspective = Type.Union([Type.Literal('published'), Type.Literal('drafts')], {
  description:
    "`published`: published main versions only; `drafts`: each document's pending draft where it has one (read permission). Absent: main versions",
});
/** `locale` on document reads and writes (docs/localization.md); the description is the OpenAPI parameter's. */
export const Locale = Type.String({
  maxLength: 64,
  description:
    'A configured locale code (`de-CH`): localized fields are served (and written) in it, each read through its fallback chain; `*`: every locale, as `{<code>: value}`. Absent: the default locale',
});
const flag = (description: string) => Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description }));
export const GetQuery = Type.Object(
  {
    expand: Type.Optional(Type.String({ maxLength: 1000, description: 'Comma-separated reference paths to expand (`author.company`)' })),
    fields: Type.Optional(Type.String({ maxLength: 1000, description: 'Comma-separated top-level fields to return' })),
    perspective: Type.Optional(Perspective),
    locale: Type.Optional(Locale),
  },
  { additionalProperties: false },
);
/** `POST`: the locale its localized fields are written in. */
export const CreateQuery = Type.Object({ locale: Type.Optional(Locale) }, { additionalProperties: false });
/** `?draft=true` on PUT and PATCH: the write goes to a published document's pending draft (docs/drafts.md). */
export const WriteQuery = Type.Object(
  {
    draft: flag(
      '`true`: on a published document, write its pending draft (made from the main version on the first write), not the live version; `_status` in the body is 422. On a document not published, no difference',
    ),
    locale: Type.Optional(Locale),
  },
  { additionalProperties: false },
);
export const DeleteQuery = Type.Object(
  { force: flag('`true`: delete even while other documents reference it (they keep the dangling id)') },
  { additionalProperties: false },
);
const RevisionKind = Type.Union([Type.Literal('main'), Type.Literal('draft')], {
  description: '`draft`: the saves of the pending draft; `main` (default): versions of the document',
});
export const PagingQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ description: 'Page size (default 20, at most 100)' })),
    offset: Type.Optional(Type.String({ description: 'Revisions to skip' })),
    kind: Type.Optional(RevisionKind),
    locale: Type.Optional(Locale),
  },
  { additionalProperties: false },
);
/** `?kind=draft` names a save of the pending draft; main versions when absent (docs/drafts.md). */
export const RestoreQuery = Type.Object({ kind: Type.Optional(RevisionKind) }, { additionalProperties: false });

/** `POST …/publish`: the body is optional (`{}` when absent). */
export const PublishBody = Type.Optional(
  Type.Object(
    {
      withReferences: Type.Optional(
        Type.Boolean({ description: 'Also publish the unpublished documents it references (and theirs), in the same transaction' }),
      ),
      dryRun: Type.Optional(
        Type.Boolean({ description: 'Answer `{publish: [{type, id}], blockedBy: [{type, id, field}]}` and change nothing' }),
      ),
    },
    { additionalProperties: false },
  ),
);
export const PublishQuery = Type.Object(
  { force: flag('`true`: publish a pending draft made from an older main version than the current one (else 409)') },
  { additionalProperties: false },
);

/** `POST …/preview` → 201: a read-only bearer and the schema's preview URL filled in (docs/preview.md). */
export const PreviewGrant = Type.Object(
  {
    data: Type.Object({
      token: Type.String(),
      url: Type.Optional(Type.String()),
      expiresAt: Type.String({ format: 'date-time' }),
    }),
  },
  { description: 'A preview token: reads only, `perspective=drafts` allowed, until `expiresAt`' },
);
