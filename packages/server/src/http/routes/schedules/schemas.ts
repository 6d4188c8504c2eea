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
export const ScheduleBody = Type.Object(
  {
    action: Action,
    at: Type.String({ maxLength: 64, description: 'An RFC 3339 date-time with its offset (`Z` or `±hh:mm`), later than now' }),
  },
  { additionalProperties: false },
);

export const ScheduleQuery = Type.Object(
  {
    type: Type.Optional(Type.String({ maxLength: 1000, description: 'One type, or several comma-separated' })),
    documentId: Type.Optional(Type.String({ maxLength: 256, description: "Only this document's schedules" })),
    status: Type.Optional(Type.Union(Status.anyOf, { description: 'Only schedules in this state' })),
    from: Type.Optional(Type.String({ maxLength: 64, description: 'Only `at` at or after this RFC 3339 date-time (with its offset)' })),
    to: Type.Optional(Type.String({ maxLength: 64, description: 'Only `at` before this RFC 3339 date-time (with its offset)' })),
    limit: Type.Optional(Type.String({ description: 'Page size (default 20, at most 100)' })),
    offset: Type.Optional(Type.String({ description: 'Schedules to skip' })),
  },
  { additionalProperties: false },
);

export const ScheduleParams = Type.Object({ id: Type.String({ maxLength: 256 }) });
