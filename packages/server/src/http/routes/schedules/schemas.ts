import { Type } from '@sinclair/typebox';

const Action = Type.Union([Type.Literal('publish'), Type.Literal('unpublish')]);
const Status = Type.Union([Type.Literal('pending'), Type.Literal('done'), Type.Literal('failed'), Type.Literal('cancelled')]);

/** A served schedule (docs/schedules.md); as a response schema, also what may be served. */
export const Schedule = Type.Object({
  id: Type.String(),
  type: Type.String(),
  documentId: Type.String(),
  action: Action,
  at: Type.String({ format: 'date-time' }),
  status: Status,
  error: Type.Optional(Type.String()),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  doneAt: Type.Optional(Type.String({ format: 'date-time' })),
});

/** `POST /documents/:type/:id/schedule`: `at` is checked by the operation (a date-time in the future). */
export const ScheduleBody = Type.Object({ action: Action, at: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export const ScheduleQuery = Type.Object(
  {
    type: Type.Optional(Type.String({ maxLength: 1000 })),
    documentId: Type.Optional(Type.String({ maxLength: 256 })),
    status: Type.Optional(Status),
    from: Type.Optional(Type.String({ maxLength: 64 })),
    to: Type.Optional(Type.String({ maxLength: 64 })),
    limit: Type.Optional(Type.String()),
    offset: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const ScheduleParams = Type.Object({ id: Type.String({ maxLength: 256 }) });
