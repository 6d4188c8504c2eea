import { Type } from '@sinclair/typebox';

export const TypeParams = Type.Object({ type: Type.String({ maxLength: 64 }) });
export const DocParams = Type.Object({ type: Type.String({ maxLength: 64 }), id: Type.String({ maxLength: 256 }) });
export const RevParams = Type.Object({
  type: Type.String({ maxLength: 64 }),
  id: Type.String({ maxLength: 256 }),
  rev: Type.String({ pattern: '^[0-9]{1,9}$' }),
});
const Perspective = Type.Union([Type.Literal('published'), Type.Literal('drafts')]);
export const GetQuery = Type.Object(
  {
    expand: Type.Optional(Type.String({ maxLength: 1000 })),
    fields: Type.Optional(Type.String({ maxLength: 1000 })),
    perspective: Type.Optional(Perspective),
  },
  { additionalProperties: false },
);
/** `?draft=true` on PUT and PATCH: the write goes to a published document's pending draft (docs/drafts.md). */
export const WriteQuery = Type.Object(
  { draft: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) },
  { additionalProperties: false },
);
export const DeleteQuery = Type.Object(
  { force: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) },
  { additionalProperties: false },
);
const RevisionKind = Type.Union([Type.Literal('main'), Type.Literal('draft')]);
export const PagingQuery = Type.Object(
  { limit: Type.Optional(Type.String()), offset: Type.Optional(Type.String()), kind: Type.Optional(RevisionKind) },
  { additionalProperties: false },
);
/** `?kind=draft` names a save of the pending draft; main versions when absent (docs/drafts.md). */
export const RestoreQuery = Type.Object({ kind: Type.Optional(RevisionKind) }, { additionalProperties: false });

/** `POST …/publish`: the body is optional (`{}` when absent). */
export const PublishBody = Type.Optional(
  Type.Object({ withReferences: Type.Optional(Type.Boolean()), dryRun: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
);
export const PublishQuery = Type.Object(
  { force: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])) },
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
