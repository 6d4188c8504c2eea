import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schemas/common.js';

/** The response allowlist of a media record (see domain/media/media-view.ts). */
export const Media = Type.Object({
  _id: Type.String(),
  filename: Type.String(),
  originalFilename: Type.String(),
  mimeType: Type.String(),
  size: Type.Integer(),
  width: Type.Optional(Type.Integer()),
  height: Type.Optional(Type.Integer()),
  alt: Nullable(Type.String()),
  title: Nullable(Type.String()),
  url: Type.String(),
  variants: Type.Record(Type.String(), Type.String()),
  placeholder: Type.Optional(Type.String()),
  dominantColor: Type.Optional(Type.String()),
  focalPoint: Type.Optional(Type.Object({ x: Type.Number(), y: Type.Number() })),
  sha256: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  createdBy: Nullable(Type.String()),
});

export const MediaListQuery = Type.Object(
  {
    limit: Type.Optional(Type.String()),
    offset: Type.Optional(Type.String()),
    type: Type.Optional(Type.String({ maxLength: 100 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    sha256: Type.Optional(Type.String({ maxLength: 64 })),
    orderBy: Type.Optional(Type.String({ maxLength: 32 })),
    order: Type.Optional(Type.String({ maxLength: 4 })),
  },
  { additionalProperties: false },
);

export const MediaPatchBody = Type.Object(
  {
    alt: Type.Optional(Nullable(Type.String())),
    title: Type.Optional(Nullable(Type.String())),
    focalPoint: Type.Optional(
      Nullable(
        Type.Object(
          { x: Type.Number({ minimum: 0, maximum: 1 }), y: Type.Number({ minimum: 0, maximum: 1 }) },
          { additionalProperties: false },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

export const MediaIdParams = Type.Object({ id: Type.String({ maxLength: 128 }) });
export const DeleteQuery = Type.Object({ force: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export const FileParams = Type.Object({ key: Type.String({ maxLength: 256 }) });
