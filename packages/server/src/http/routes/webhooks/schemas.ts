import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schemas/common.js';

/** Create and replace take the same body (docs/api.md, "Webhooks"); unknown fields are refused. */
export const Body = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    events: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 50 }),
    types: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200 })),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const ListQuery = Type.Object(
  { limit: Type.Optional(Type.String()), offset: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const DeliveryQuery = Type.Object(
  { status: Type.Optional(Type.String({ maxLength: 32 })), limit: Type.Optional(Type.String()), offset: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ maxLength: 128 }) });
export const DeliveryParams = Type.Object({ id: Type.String({ maxLength: 128 }), deliveryId: Type.String({ maxLength: 128 }) });

/** The served webhook; as a response schema also the allowlist: the secret is never serialised here. */
export const Webhook = Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  types: Type.Array(Type.String()),
  active: Type.Boolean(),
  consecutiveFailures: Type.Integer(),
  disabledAt: Nullable(Type.String()),
  disabledReason: Nullable(Type.String()),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  createdBy: Nullable(Type.String()),
});

export const Delivery = Type.Object({
  id: Type.String(),
  webhookId: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Type.String()),
  lastStatusCode: Nullable(Type.Integer()),
  lastDurationMs: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  createdAt: Type.String(),
  deliveredAt: Nullable(Type.String()),
});
